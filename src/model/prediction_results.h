// Converts predictions into the shared results schema (kind "predict"), in the shapes
// `pgstorsim report` reads (docs/report.md): summary tps, one statement entry per
// statement (its histogram holds the single modelled mean), config = the canonical
// scenario, sections.prediction = tps band, devices, regime; for a sweep also
// sections.sweep = one row per point (settings, tps, band, latency_ms).
#ifndef PGSTORSIM_MODEL_PREDICTION_RESULTS_H_
#define PGSTORSIM_MODEL_PREDICTION_RESULTS_H_

#include <nlohmann/json.hpp>

#include "common/results.h"
#include "model/slo.h"
#include "model/storage_model.h"
#include "model/sweep.h"
#include "scenario/scenario.h"

namespace pgstorsim {

nlohmann::json PredictionToJson(const Prediction& p);
Results PredictionToResults(const Scenario& s, const Prediction& p);

// One sweep row: {"settings" (SweepSettingsJson: results names, units in the key),
// "index" (in the whole sweep), "tps", "tps_low", "tps_high", "latency_ms" (transaction mean),
// "p95_ms" (transaction), "regime", "base"}; a refused point has settings and "error" only. "base"
// is true when the point equals `base` (no override changes it).
nlohmann::json SweepRowsToJson(const Scenario& base, const SweepTable& table);

// A sweep as one predict result: summary tps, statements and sections.prediction come
// from `current` (the prediction of `base` without sweep overrides, or of the first
// valid point when the caller has none), config = the scenario plus "sweep_keys",
// sections.sweep = SweepRowsToJson.
Results SweepPredictionToResults(const Scenario& base, const Prediction& current,
                                 const SweepTable& table);

// One configuration's answers to an objective (sections.slo.configurations[]):
// {"settings" (the choice keys as a sweep row's: SweepSettingsJson), "tps", "p95_ms", "value" (the
// objective's metric), "meets", "margin", "clients" (largest meeting a latency objective, smallest
// reaching a tps one; 0 = none), "clients_limit", "scale", "scale_limit", and at 2 x the scale
// "tps_at_double_scale", "p95_ms_at_double_scale", "value_at_double_scale"}.
nlohmann::json HeadroomToJson(const nlohmann::json& settings, const Slo& slo, const Headroom& h);
// sections.slo: {"objective", "metric", "limit", "at_most", "configurations": [...],
// "met_by" (how many meet it)}.
nlohmann::json SloSectionJson(const Slo& slo, const nlohmann::json& configurations);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_PREDICTION_RESULTS_H_
