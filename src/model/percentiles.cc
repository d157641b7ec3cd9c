// Statement and transaction latency percentiles (percentiles.h): each statement's
// random parts (latency_grid.h) from its solved shape, and their distribution's quantiles.
#include "model/percentiles.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "model/latency_grid.h"
#include "model/latency_shape.h"

namespace pgstorsim {
namespace {

using latency_grid::Distribution;
using latency_grid::DistributionOf;
using latency_grid::Mixture;
using latency_grid::Part;
using latency_grid::QuantilesAt;
using latency_grid::Stall;

constexpr int kMaxReads = 8;       // Reads per statement beyond this are folded in.
constexpr double kMinBusy = 0.05;  // A station's share of time busy, floored.

// A read's wait given that it waits, of mean `wait_ms`: exponential behind an open
// destage stream; in the saturated share, the destage commands queued ahead of it
// (wait_ms / command_ms of them, a gamma of that shape).
double ReadWaitScv(const StatementShape& s, double wait_ms) {
  const double saturated = std::clamp(s.saturated, 0.0, 1.0);
  if (!(saturated > 0) || !(s.command_ms > 0)) return 1;
  const double commands = std::clamp(wait_ms / s.command_ms, 1.0, kMaxWaitCommands);
  return (1 - saturated) + saturated / commands;
}

// A statement's random parts: its reads (waits as above, as much of the excess as r
// reads at S / (1 - U) explain), its wait for cache room, its checkpoint-burst stalls,
// its wait for the WAL flush in progress, the rest a wait: rare stalls of `stall_ms` where the
// shape has them, else an exponential wait.
std::vector<Part> PartsOf(const StatementShape& s) {
  std::vector<Part> parts;
  double excess = std::max(0.0, s.mean_ms - s.fixed_ms);
  if (!(excess > 0)) return parts;
  if (s.reads > 1e-3) {
    Part reads;
    reads.busy = std::clamp(s.busy, kMinBusy, 1.0);
    const double residence = s.read_service_ms / std::max(1e-3, 1 - reads.busy);
    const double per_read = std::min(excess / s.reads, residence);
    reads.n = std::min(kMaxReads, static_cast<int>(std::ceil(s.reads)));
    reads.q = std::min(1.0, s.reads / reads.n);
    reads.service_ms = std::min(s.read_service_ms, per_read);
    reads.wait_ms = per_read - reads.service_ms;
    reads.scv = ReadWaitScv(s, reads.wait_ms / reads.busy);
    parts.push_back(reads);
    excess -= per_read * s.reads;
  }
  if (s.room_ms > 0 && s.room_busy > 0 && excess > 1e-9) {
    Part room;
    room.n = 1;
    room.q = 1;
    room.busy = std::min(1.0, s.room_busy);
    room.wait_ms = std::min(excess, s.room_ms);
    room.scv = 1 / std::clamp(s.room_commands, 1.0, kMaxWaitCommands);
    parts.push_back(room);
    excess -= room.wait_ms;
  }
  if (s.burst_ms > 0 && s.burst_mean_ms > 0 && excess > 1e-9) {
    parts.push_back(Stall(std::min(excess, s.burst_mean_ms), s.burst_ms));
    excess -= parts.back().wait_ms;
  }
  if (s.flush_wait_ms > 0 && s.flush_ms > 0 && excess > 1e-9) {
    Part flush;
    flush.n = 1;
    flush.q = 1;
    flush.wait_ms = std::min(excess, s.flush_wait_ms);
    flush.busy = std::min(1.0, 2 * s.flush_wait_ms / s.flush_ms);
    flush.scv = 1.0 / 3;  // What is left of a flush: uniform over it.
    parts.push_back(flush);
    excess -= flush.wait_ms;
  }
  if (excess > 1e-9 && s.stall_ms > excess) {
    parts.push_back(Stall(excess, s.stall_ms));
  } else if (excess > 1e-9) {
    Part wait;
    wait.n = 1;
    wait.q = 1;
    wait.wait_ms = excess;
    parts.push_back(wait);
  }
  return parts;
}

LatencyPercentiles Percentiles(const Mixture& mix) {
  const std::vector<double> q = QuantilesAt(mix, {0.50, 0.95, 0.99});
  return {q[0], q[1], q[2]};
}

std::vector<double> Quantiles(const Mixture& mix, int n) {
  std::vector<double> fractions(n);
  for (int k = 1; k <= n; ++k) fractions[k - 1] = (k - 0.5) / n;
  return QuantilesAt(mix, fractions);
}

Mixture One(Distribution d) { return {{1.0, std::move(d)}}; }

Mixture MixtureOf(const std::vector<std::pair<double, StatementShape>>& shapes) {
  Mixture mix;
  for (const auto& [share, shape] : shapes) {
    if (share > 0) mix.emplace_back(share, DistributionOf(PartsOf(shape), shape.fixed_ms));
  }
  return mix;
}

// The transaction's parts: every statement's, its statements independent.
std::vector<Part> TransactionParts(const std::map<std::string, StatementShape>& shapes) {
  std::vector<Part> parts;
  for (const auto& [name, shape] : shapes) {
    for (const Part& p : PartsOf(shape)) parts.push_back(p);
  }
  return parts;
}

double TransactionFixedMs(const std::map<std::string, StatementShape>& shapes) {
  double fixed_ms = 0;
  for (const auto& [name, shape] : shapes) fixed_ms += shape.fixed_ms;
  return fixed_ms;
}

}  // namespace

LatencyPercentiles StatementPercentiles(const StatementShape& shape) {
  return Percentiles(One(DistributionOf(PartsOf(shape), shape.fixed_ms)));
}

LatencyPercentiles TransactionPercentiles(const std::map<std::string, StatementShape>& shapes) {
  return Percentiles(One(DistributionOf(TransactionParts(shapes), TransactionFixedMs(shapes))));
}

std::vector<double> StatementQuantiles(const StatementShape& shape, int n) {
  return Quantiles(One(DistributionOf(PartsOf(shape), shape.fixed_ms)), n);
}

std::vector<double> TransactionQuantiles(const std::map<std::string, StatementShape>& shapes,
                                         int n) {
  return Quantiles(One(DistributionOf(TransactionParts(shapes), TransactionFixedMs(shapes))), n);
}

double StalledShare(const std::map<std::string, StatementShape>& shapes) {
  return 1 - std::exp(-latency_grid::MeanStalls(TransactionParts(shapes)));
}

LatencyPercentiles MixturePercentiles(
    const std::vector<std::pair<double, StatementShape>>& shapes) {
  const Mixture mix = MixtureOf(shapes);
  return mix.empty() ? LatencyPercentiles{} : Percentiles(mix);
}

std::vector<double> MixtureQuantiles(const std::vector<std::pair<double, StatementShape>>& shapes,
                                     int n) {
  const Mixture mix = MixtureOf(shapes);
  return mix.empty() ? std::vector<double>(n, 0.0) : Quantiles(mix, n);
}

std::vector<std::pair<double, StatementShape>> RequestMix(const Prediction& prediction) {
  std::vector<std::pair<double, StatementShape>> mix;
  for (const auto& [name, shape] : prediction.statement_shapes) {
    auto share = prediction.statement_shares.find(name);
    mix.emplace_back(share == prediction.statement_shares.end() ? 0 : share->second, shape);
  }
  return mix;
}

}  // namespace pgstorsim
