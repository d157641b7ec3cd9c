// Service-level objectives and the capacity questions asked of them (docs/model.md,
// "Headroom and growth"): does a configuration meet the objective, up to how many
// clients, up to which database scale, and what a doubled database does to it.
// Objectives: "p50<X", "p95<X", "p99<X", "mean<X" (X a duration, e.g. 50ms; "<="
// alike) on the transaction latency, or "tps>=N" ("tps>N" alike).
// Units: ms, tps. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_SLO_H_
#define PGSTORSIM_MODEL_SLO_H_

#include <cstdint>
#include <string>

#include "common/status.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct Slo {
  std::string text;     // As given.
  std::string metric;   // "p50_ms", "p95_ms", "p99_ms", "mean_ms" or "tps".
  bool at_most = true;  // Latency: value <= limit; tps: value >= limit.
  double limit = 0;

  double Value(const Prediction& p) const;
  bool Met(const Prediction& p) const { return Margin(p) >= 0; }
  // Relative margin: > 0 met with that much to spare, < 0 missed by that much
  // (latency: 1 - value / limit; tps: value / limit - 1).
  double Margin(const Prediction& p) const;
};

// Errors name the option and the accepted forms.
StatusOr<Slo> ParseSlo(const std::string& text);

// A configuration's answers. Latency objectives: the largest client count (at the
// scenario's data) and the largest data (at its clients) that meet it; a tps
// objective: the smallest client count that reaches it and the largest data that
// keeps it. The data is the database's scale, or an io workload's file (its size in
// bytes, searched in MiB). 0 = not even at 1 client / scale 1 or 1 MiB; a search stops
// at kMaxClients / kMaxScale / kMaxFileMiB or where the configuration stops being valid
// (`*_limit` says which).
struct Headroom {
  Prediction at_base;
  bool meets = false;
  double margin = 0;
  int clients = 0;
  std::string clients_limit;  // "slo", "search limit", or the refusal.
  std::string data_key;       // "workload.scale" or "workload.file_size".
  int64_t data = 0;           // Scale, or file bytes.
  std::string data_limit;
  bool have_double_data = false;
  Prediction at_double_data;  // The scenario with twice its data.
};
inline constexpr int kMaxClients = 4096;
inline constexpr int64_t kMaxScale = 1000000;
inline constexpr int64_t kMaxFileMiB = int64_t{1} << 30;  // 1 PiB.

// REQUIRES: ValidateScenario(s).ok().
StatusOr<Headroom> FindHeadroom(const Scenario& s, const Slo& slo);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_SLO_H_
