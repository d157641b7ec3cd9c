// Exact mean value analysis (MVA) of a single-class closed queueing network, plus the
// fork-join response-time correction used for requests split over several devices.
//
// A network has queueing stations (FCFS / processor sharing, load-independent) with a
// service demand per transaction in milliseconds, and a pure delay (think time / CPU
// not contended) in milliseconds. Solve(N) runs the exact MVA recursion for N = 1..N
// customers: R_k(n) = D_k (1 + Q_k(n-1)), X(n) = n / (Z + sum R_k), Q_k(n) = X R_k.
// One more station may have c identical servers (a multi-core CPU), solved exactly as
// a load-dependent station (service rate min(j, c) / D with j present): its residence
// R(n) = (D / c) (1 + Q(n-1) + sum_{j=0}^{c-2} (c - 1 - j) p_j(n-1)), with the marginal
// probabilities of j present p_j(n) = X(n) (D / j) p_{j-1}(n-1) for 1 <= j < c and
// p_0(n) = p_0(n-1) X(n) / X'(n), X' the throughput of the network without the station
// (Reiser and Lavenberg's identity: stable where 1 - sum p_j cancels badly); O(N (c +
// K)). A lone customer spends D there; saturated, it serves c / D; its utilisation per
// server is X D / c.
// Units: demands and residence times in ms, throughput in transactions per ms.
// Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_MVA_H_
#define PGSTORSIM_MODEL_MVA_H_

#include <vector>

namespace pgstorsim {

// A station of `servers` identical servers with demand `demand_ms` per transaction
// (demand_ms = 0: none).
struct MultiServerStation {
  double demand_ms = 0;
  int servers = 1;
};

struct MvaResult {
  double throughput_per_ms = 0;      // X(N).
  std::vector<double> residence_ms;  // R_k(N), per station (per visit-weighted txn).
  std::vector<double> queue_length;  // Q_k(N).
  std::vector<double> utilization;   // U_k = X D_k (multi-server: X D / c, per server).
  double cycle_ms = 0;               // N / X = Z + sum R_k (SolveMva); paced: >= that.
};

// REQUIRES: clients >= 1, demands >= 0, delay_ms >= 0, not all zero, servers >= 1.
// A multi-server station with demand_ms > 0 is the last station of the result.
MvaResult SolveMva(int clients, const std::vector<double>& demands_ms, double delay_ms,
                   const MultiServerStation& multi = {});

// The same network with every station a pacer (a rate cap, e.g. cgroup blkio): a
// request is not held for its own slot, only for the slots of the requests queued ahead
// of it and, with probability U (arrival theorem), the rest of the slot in progress:
// R_k(n) = D_k (Q_k(n-1) + U_k(n-1) / 2), and X(n) <= 1 / max D_k. One customer sees no
// wait: X(1) = min(1 / Z, 1 / max D_k), where a queue gives 1 / (Z + sum D_k). When a
// cap binds, cycle_ms = N / X exceeds Z + sum R_k by the wait for the cap's next slot,
// which the residences leave out (regimes.cc AddPacingWait gives it to a statement).
// A multi-server station (the CPU beside throttled disks) is a queue, not a pacer.
MvaResult SolvePacedMva(int clients, const std::vector<double>& demands_ms, double delay_ms,
                        const MultiServerStation& multi = {});

// Expected maximum of k independent exponential response times of mean r, divided by
// r: the harmonic number H_k = 1 + 1/2 + ... + 1/k (the fork-join penalty of a request
// that waits for k equally loaded devices). Fractional k interpolates linearly.
double ForkJoinFactor(double k);

// The share of a split read's summed piece time that it waits for: its k pieces run in
// parallel on k members and it ends with the slowest, F = 1 + fork_join_weight (H_k - 1)
// times the mean piece, so F / k of their sum (1 for k <= 1). The rest of the pieces'
// busy time runs beside the read's path.
double SplitReadWaitedShare(double k, double fork_join_weight);

// The throughput x_per_ms held where no station is busy more than all the time:
// min(x_per_ms, 1 / busiest_ms), busiest_ms the largest busy time per transaction of
// one server (ms); busiest_ms <= 0 (no demand) leaves x_per_ms.
double HeldAtBottleneck(double x_per_ms, double busiest_ms);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MVA_H_
