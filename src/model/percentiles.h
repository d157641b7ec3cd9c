// Percentiles of statement and transaction latency from a solved prediction
// (docs/model.md, "Percentiles"). The model solves for means; this derives a
// distribution per statement from what the solved network already gives and combines
// the statements of a transaction by convolution:
//   - a statement's fixed part: its CPU share (and END's commit acknowledgement);
//   - UPDATE accounts: K block reads, K ~ Binomial(ceil(r), r / ceil(r)) with r the
//     reads per transaction; each read is its service time (deterministic) plus an
//     M/M/1-like wait: with probability U (the members' mean utilisation) an
//     exponential wait of mean w / U, so that the read's mean residence is the one the
//     network gives (UPDATE's time over r);
//   - every other wait (END beyond the commit, the row-lock waits, UPDATE's residence
//     when nothing is read) an M/M/1-like wait of the statement's mean excess;
//   - statements independent: the transaction is their sum.
// Where it is wrong (measured against the simulator's histograms in
// tests/model/percentiles_test.cc): destage-bound runs wait in rare long stalls (a
// checkpoint's fsync burst fills the controller cache for seconds) that a
// per-transaction exponential spreads over every commit, so p95 comes out high and
// p99 low there; a read that queues behind a saturated disk's destages waits an almost
// fixed time, not an exponential one.
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
  double mean_ms = 0;     // The model's mean latency.
  double fixed_ms = 0;    // Always spent (CPU share, commit acknowledgement).
  double reads = 0;       // Block reads per execution (UPDATE accounts), else 0.
  double read_service_ms = 0;  // A read's service time without queueing.
  double busy = 0;        // Utilisation of the stations it waits at (0..1).
  double stall_ms = 0;    // > 0: its other waits come as stalls this long (a full
                          // write-back cache draining its room), else exponential.
};

// One statement's percentiles, and the transaction's (the sum of independent
// statements). REQUIRES: shapes non-empty.
LatencyPercentiles StatementPercentiles(const StatementShape& shape);
LatencyPercentiles TransactionPercentiles(const std::map<std::string, StatementShape>& shapes);

// Fills prediction->statement_percentiles and transaction_percentiles from its means,
// reads, read service time and device utilisations (the shapes above).
void AddPercentiles(const Scenario& s, const ModelParams& params, Prediction* prediction);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_PERCENTILES_H_
