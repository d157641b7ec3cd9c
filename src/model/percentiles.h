// Percentiles of statement and transaction latency from a solved prediction
// (docs/model.md, "Percentiles"). The model solves for means; this derives a
// distribution per statement from what the solved network already gives and combines
// the statements of a transaction by convolution:
//   - a statement's fixed part: its CPU share (and END's commit acknowledgement, or
//     without a write-back cache its own WAL flush);
//   - UPDATE accounts: K block reads, K ~ Binomial(ceil(r), r / ceil(r)) with r the
//     reads per transaction; each read is its service time (deterministic) plus a
//     wait that occurs with probability U (the members' mean utilisation), of mean
//     w / U so that the read's mean residence is the one the network gives (UPDATE's
//     time over r). The wait is gamma-distributed: exponential (squared coefficient
//     of variation 1, M/M/1) where destage is an open background stream, and, in the
//     share of time the destage stream saturates the disks (the cache-full weight),
//     the sum of the k destage commands queued ahead of the read (the controller
//     keeps a bounded number in flight), squared coefficient of variation 1 / k;
//   - END with a full write-back cache: a frequent wait for room (with probability
//     the cache-full weight x (N - 1) / N: the other clients' commits ahead of it),
//     one transaction's destage time at the busiest member, spanning the destage
//     commands that free its lines (a gamma of that many commands);
//   - END without a write-back cache, when commits flush the WAL: its wait for the
//     flush in progress (the share of commits that find one waits what is left of
//     it, uniform over a flush: a gamma of squared coefficient of variation 1/3); its
//     wait in
//     checkpoint bursts, as rare stalls of what a commit in a burst waits (the flush
//     in progress and its own, each behind the OS's writes in flight; at most the
//     burst);
//   - every other wait (END's rest, the row-lock waits, UPDATE's residence when
//     nothing is read): with a write-back cache, rare stalls of exactly what a commit
//     queued for room behind the OS's writes in flight waits
//     (Prediction::commit_behind_os_writes_ms), else an exponential wait of the
//     statement's mean excess;
//   - statements independent: the transaction is their sum.
// Where it is wrong (measured against the simulator's histograms in
// tests/model/percentiles_test.cc): docs/model.md, "Percentiles".
// Units: ms. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_PERCENTILES_H_
#define PGSTORSIM_MODEL_PERCENTILES_H_

#include <map>
#include <string>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// What a statement's distribution is built from (all >= 0).
struct StatementShape {
  double mean_ms = 0;          // The model's mean latency.
  double fixed_ms = 0;         // Always spent (CPU share, commit acknowledgement).
  double reads = 0;            // Block reads per execution (UPDATE accounts), else 0.
  double read_service_ms = 0;  // A read's service time without queueing.
  double busy = 0;             // Utilisation of the stations it waits at (0..1).
  double stall_ms = 0;         // > 0: its other waits come as stalls exactly this long
                               // (behind the OS's writes for write-back cache room),
                               // else an exponential wait.
  double saturated = 0;        // Share of time the destage stream saturates the disks (0..1).
  double command_ms = 0;       // A destage command's service (what a saturated wait counts).
  double room_ms = 0;          // Mean wait for write-back cache room per execution.
  double room_busy = 0;        // Probability that an execution waits for room (0..1).
  double room_commands = 1;    // Destage commands (>= 1) a wait for room spans.
  double burst_mean_ms = 0;    // Mean wait in checkpoint bursts per execution (END).
  double burst_ms = 0;         // A commit's wait in a burst: that wait comes as stalls this long.
  double flush_wait_ms = 0;    // Mean wait for the WAL flush in progress per execution (END),
  double flush_ms = 0;         // a wait within one flush this long.
};

// One statement's percentiles, and the transaction's (the sum of independent
// statements). REQUIRES: shapes non-empty.
LatencyPercentiles StatementPercentiles(const StatementShape& shape);
LatencyPercentiles TransactionPercentiles(const std::map<std::string, StatementShape>& shapes);
// Share (0..1) of the transactions that wait in a stall (the statements' stall
// probabilities summed, at most 1): the mass the p99 sits in when it exceeds 0.01.
double StalledShare(const std::map<std::string, StatementShape>& shapes);

// Fills prediction->statement_percentiles and transaction_percentiles from its means,
// reads, read service time and device utilisations (the shapes above).
void AddPercentiles(const Scenario& s, const ModelParams& params, Prediction* prediction);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_PERCENTILES_H_
