// Exact mean value analysis (MVA) of a single-class closed queueing network, plus the
// fork-join response-time correction used for requests split over several devices.
//
// A network has queueing stations (FCFS / processor sharing, load-independent) with a
// service demand per transaction in milliseconds, and a pure delay (think time / CPU
// not contended) in milliseconds. Solve(N) runs the exact MVA recursion for N = 1..N
// customers: R_k(n) = D_k (1 + Q_k(n-1)), X(n) = n / (Z + sum R_k), Q_k(n) = X R_k.
// Units: demands and residence times in ms, throughput in transactions per ms.
// Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_MVA_H_
#define PGSTORSIM_MODEL_MVA_H_

#include <vector>

namespace pgstorsim {

struct MvaResult {
  double throughput_per_ms = 0;      // X(N).
  std::vector<double> residence_ms;  // R_k(N), per station (per visit-weighted txn).
  std::vector<double> queue_length;  // Q_k(N).
  std::vector<double> utilization;   // U_k = X D_k.
  double cycle_ms = 0;               // N / X = Z + sum R_k (SolveMva); paced: >= that.
};

// REQUIRES: clients >= 1, demands >= 0, delay_ms >= 0, not all zero.
MvaResult SolveMva(int clients, const std::vector<double>& demands_ms, double delay_ms);

// The same network with every station a pacer (a rate cap, e.g. cgroup blkio): a
// request is not held for its own slot, only for the slots of the requests queued ahead
// of it and, with probability U (arrival theorem), the rest of the slot in progress:
// R_k(n) = D_k (Q_k(n-1) + U_k(n-1) / 2), and X(n) <= 1 / max D_k. One customer sees no
// wait: X(1) = min(1 / Z, 1 / max D_k), where a queue gives 1 / (Z + sum D_k). When a
// cap binds, cycle_ms = N / X exceeds Z + sum R_k by the wait for the cap's next slot,
// which the residences leave out (regimes.cc AddPacingWait gives it to a statement).
MvaResult SolvePacedMva(int clients, const std::vector<double>& demands_ms, double delay_ms);

// Expected maximum of k independent exponential response times of mean r, divided by
// r: the harmonic number H_k = 1 + 1/2 + ... + 1/k (the fork-join penalty of a request
// that waits for k equally loaded devices). Fractional k interpolates linearly.
double ForkJoinFactor(double k);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MVA_H_
