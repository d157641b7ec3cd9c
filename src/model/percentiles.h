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
//     share of time the destage stream saturates the disks
//     (Prediction::destage_saturated_share: the cache-full weight, or all of the run
//     where the OS page cache holds a backlog of dirty pages),
//     the sum of the k destage commands queued ahead of the read (the controller
//     keeps a bounded number in flight), squared coefficient of variation 1 / k;
//   - END with a full write-back cache it writes to: a frequent wait for room (with probability
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
//     nothing is read): with a write-back cache that the commits write to (not with
//     synchronous_commit = off or the WAL on its own device), rare stalls of exactly what a commit
//     queued for room behind the OS's writes in flight waits
//     (Prediction::commit_behind_os_writes_ms), else an exponential wait of the
//     statement's mean excess;
//   - stalls are rare independent events: an execution waits in a Poisson number of
//     them whose mean is its stall wait over one stall's length, and a transaction in
//     the sum of its statements' (so where stalls are frequent, at many clients, the
//     stalls still add up to the mean);
//   - statements independent: the transaction is their sum.
// Where it is wrong (measured against the simulator's histograms in
// tests/model/percentiles_test.cc): docs/model.md, "Percentiles".
// Units: ms. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_PERCENTILES_H_
#define PGSTORSIM_MODEL_PERCENTILES_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// One statement's percentiles, and the transaction's (the sum of independent
// statements). REQUIRES: shapes non-empty.
LatencyPercentiles StatementPercentiles(const StatementShape& shape);
LatencyPercentiles TransactionPercentiles(const std::map<std::string, StatementShape>& shapes);
// The same distributions as `n` values, the k-th (k = 1..n) at quantile (k - 1/2) / n,
// ascending: each stands for a 1 / n slice of the mass. REQUIRES: n >= 1.
std::vector<double> StatementQuantiles(const StatementShape& shape, int n);
std::vector<double> TransactionQuantiles(const std::map<std::string, StatementShape>& shapes,
                                         int n);
// A request that is one of the statements, each with its share of the requests (the
// shares sum to 1; io workloads' reads and writes): the mixture's percentiles and its
// n values as above.
LatencyPercentiles MixturePercentiles(const std::vector<std::pair<double, StatementShape>>& shapes);
std::vector<double> MixtureQuantiles(const std::vector<std::pair<double, StatementShape>>& shapes,
                                     int n);
// An io prediction's request mixture: each statement's shape with its share
// (prediction.statement_shapes and statement_shares).
std::vector<std::pair<double, StatementShape>> RequestMix(const Prediction& prediction);
// Share (0..1) of the transactions that wait in at least one stall (1 - e^-m, m the
// statements' mean stall counts summed): the mass the p99 sits in when it exceeds 0.01.
double StalledShare(const std::map<std::string, StatementShape>& shapes);

// Fills prediction->statement_shapes, statement_percentiles and transaction_percentiles
// from its means, reads, read service time and device utilisations.
void AddPercentiles(const Scenario& s, const ModelParams& params, Prediction* prediction);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_PERCENTILES_H_
