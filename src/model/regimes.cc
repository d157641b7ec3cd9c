#include "model/regimes.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "model/falling_root.h"
#include "model/mirror_sets.h"
#include "model/mva.h"

namespace pgstorsim {
namespace {

// The closed chain over the members' stations and the CPU. `read_ms` is the read part
// of each station's demand (what a transaction's path waits for: a split read's waited
// share, Demands::read_waited); the residences split accordingly.
struct ChainMva {
  MvaResult mva;
  double read_residence_ms = 0;  // Queueing + service of the read parts.
  double write_residence_ms = 0;
  double cpu_residence_ms = 0;  // At the CPU queue (the station after the members).
};

// The members' stations `demand_ms` (reads `read_ms` of it; `balanced_ms` of it shared
// out over the copies of a mirror set) and the CPU after them (a queue even where the
// members are pacers). Queues of mirror copies are solved as one multi-server station
// each (mirror_sets.h); pacers stay one station per member.
ChainMva SolveChainMva(int clients, const std::vector<double>& demand_ms,
                       const std::vector<double>& read_ms, const std::vector<double>& balanced_ms,
                       const Demands& d, double delay_ms) {
  ChainMva r;
  const size_t members = demand_ms.size();
  static const MirrorSets kEachAlone;
  const MirrorSets& sets = d.paced ? kEachAlone : d.mirrors;
  const MemberDemands parts{demand_ms, balanced_ms};
  const MergedStations merged = MergeMirrorSets(sets, parts);
  const size_t stations = merged.demand_ms.size();
  const double z_ms = delay_ms + merged.delay_ms;
  r.mva = d.paced ? SolvePacedMva(clients, merged.demand_ms, z_ms, d.cpu)
                  : SolveMva(clients, merged.demand_ms, z_ms, d.cpu);
  const std::vector<double> residence_ms = MemberResidences(sets, r.mva, parts);
  for (size_t m = 0; m < members; ++m) {
    if (demand_ms[m] <= 0) continue;
    const double read_share = read_ms[m] / demand_ms[m];
    r.read_residence_ms += residence_ms[m] * read_share;
    r.write_residence_ms += residence_ms[m] * (1 - read_share);
  }
  r.cpu_residence_ms = r.mva.residence_ms.size() > stations ? r.mva.residence_ms[stations] : 0;
  return r;
}

// A transaction's reads on its path at member m (their waited share) and the busy time
// of the other clients' parallel pieces there, per transaction (n - 1 of n clients).
double PathReadMs(const Demands& d, size_t m) { return d.read_waited * d.read_ms[m]; }
double BesideReadMs(int clients, const Demands& d, size_t m) {
  return (clients - 1.0) / clients * (1 - d.read_waited) * d.read_ms[m];
}

// The reads present at the members' queues per transaction: the path's residence and
// the parallel pieces', which queue as long.
double ReadQueueMs(const Demands& d, double path_residence_ms) {
  return path_residence_ms / std::max(1e-9, d.read_waited);
}

// The throughput x = X_mva(x) of a closed chain slowed by an open background that grows
// with x: `excess(x)` = X_mva(x) - x falls as x rises and records what it evaluates. The
// root is bracketed by [0, X_mva(0)] and found by regula falsi (Illinois variant); the
// last evaluation is at the returned x.
double SolveThroughputFixedPoint(const std::function<double(double)>& excess) {
  const double hi = excess(0), f_hi = excess(hi);
  if (!(f_hi < 0)) return hi;
  RootStop stop;
  stop.max_steps = 100;
  stop.f_rel = 1e-8;
  stop.width_rel = 1e-12;
  return *FallingRoot([&](double at) -> StatusOr<double> { return excess(at); }, 0, hi, hi, f_hi,
                      stop);
}

// On rate caps (paced stations) an I/O arriving below the rate is not delayed, so the
// residences can add up to less than the cycle N / X when a cap binds: the client then
// waits for the cap's next slot. That wait goes to the statement whose I/O the binding
// cap serves: UPDATE accounts for a read cap, END for a write cap; caps that bind
// together (the busiest demand, equal) share it in equal parts.
void AddPacingWait(int clients, const Demands& d, double delay_ms, RegimeSolution* r) {
  if (!d.paced || r->x_per_ms <= 0) return;
  const double gap_ms = clients / r->x_per_ms - delay_ms - r->update_ms - r->end_ms - r->cpu_ms;
  if (gap_ms <= 0) return;
  double busiest = 0;
  for (size_t m = 0; m < d.read_ms.size(); ++m) {
    busiest = std::max(busiest, d.read_ms[m] + d.write_ms[m]);
  }
  double read_caps = 0, write_caps = 0;
  for (size_t m = 0; m < d.read_ms.size(); ++m) {
    if (d.read_ms[m] + d.write_ms[m] < busiest * (1 - 1e-9)) continue;
    (d.read_ms[m] >= d.write_ms[m] ? read_caps : write_caps) += 1;
  }
  r->update_ms += gap_ms * read_caps / (read_caps + write_caps);
  r->end_ms += gap_ms * write_caps / (read_caps + write_caps);
}

}  // namespace

// Reads bound: destage and the other clients' parallel read pieces are an open
// background class that slows the closed demands (reads, and the WAL write without a
// write-back cache) by 1/(1 - U_w). The throughput x solves
// x = X_mva(demands inflated at x); X_mva falls as x rises, so the root is bracketed by
// [0, X_mva(0)] and found by regula falsi (Illinois variant).
RegimeSolution SolveReadBound(int clients, const Demands& d, double delay_ms) {
  RegimeSolution r;
  const bool wal = !d.wal_ms.empty();
  auto excess = [&](double x) {  // X_mva(x) - x; records the residences.
    std::vector<double> reads(d.read_ms.size()), closed(d.read_ms.size());
    for (size_t m = 0; m < reads.size(); ++m) {
      const double open_ms = d.write_ms[m] + BesideReadMs(clients, d, m);
      const double slow = 1 / (1 - std::min(0.99, x * open_ms));
      reads[m] = PathReadMs(d, m) * slow;
      closed[m] = reads[m] + (wal ? d.wal_ms[m] * slow : 0);
    }
    // The WAL write's path is shared out over the copies like the reads.
    const ChainMva f = SolveChainMva(clients, closed, reads, closed, d, delay_ms);
    r.update_ms = f.read_residence_ms;
    r.read_queue_ms = ReadQueueMs(d, f.read_residence_ms);
    r.end_ms = f.write_residence_ms;
    r.cpu_ms = f.cpu_residence_ms;
    return f.mva.throughput_per_ms - x;
  };
  const double x = SolveThroughputFixedPoint(excess);  // The residences are at x.
  r.x_per_ms = x;
  for (size_t m = 0; m < d.read_ms.size(); ++m) {
    const double closed = d.read_ms[m] + (wal ? d.wal_ms[m] : 0);
    const double left = std::max(1e-6, 1 - x * closed);
    r.rho = std::max(r.rho, x * d.write_ms[m] / left);
  }
  AddPacingWait(clients, d, delay_ms, &r);
  return r;
}

RegimeSolution SolveCacheFull(int clients, const Demands& d, double delay_ms,
                              const RegimeSolution& free) {
  // The bottleneck's demand per transaction (per server).
  double busiest_ms = d.cpu.demand_ms / std::max(1, d.cpu.servers);
  for (size_t m = 0; m < d.read_ms.size(); ++m) {
    const double wal = d.wal_ms.empty() ? 0 : d.wal_ms[m];
    busiest_ms = std::max(busiest_ms, d.read_ms[m] + d.write_ms[m] + wal);
  }
  RegimeSolution r;
  r.x_per_ms = HeldAtBottleneck(free.x_per_ms, busiest_ms);
  // The CPU queues no longer than with the cache free (the throughput is not higher).
  r.cpu_ms = std::min(free.cpu_ms, std::max(0.0, clients / r.x_per_ms - delay_ms));
  const double disks_ms = std::max(0.0, clients / r.x_per_ms - delay_ms - r.cpu_ms);
  if (d.update_residence_share > 0) {
    // Reads and commits wait on the same saturated queues: the residence is split.
    r.update_ms = std::min(1.0, d.update_residence_share) * disks_ms;
  } else {
    r.update_ms = std::min(free.update_ms, disks_ms);
  }
  r.end_ms = disks_ms - r.update_ms;
  return r;
}

// Destage bound: the write-back cache is full, so each commit waits for the destage of
// the transaction's writes; all demands are on the transaction's path.
RegimeSolution SolveDestageBound(int clients, const Demands& d, double delay_ms) {
  const size_t members = d.read_ms.size();
  std::vector<double> total(members), reads(members);
  // The other clients' parallel read pieces slow the path at the throughput they run at.
  ChainMva f;
  SolveThroughputFixedPoint([&](double x) {
    for (size_t m = 0; m < members; ++m) {
      const double slow = 1 / (1 - std::min(0.99, x * BesideReadMs(clients, d, m)));
      reads[m] = PathReadMs(d, m) * slow;
      total[m] = reads[m] + d.write_ms[m] * slow;
    }
    f = SolveChainMva(clients, total, reads, reads, d, delay_ms);
    return f.mva.throughput_per_ms - x;
  });
  RegimeSolution r;
  r.x_per_ms = f.mva.throughput_per_ms;
  r.cpu_ms = f.cpu_residence_ms;
  r.update_ms = f.read_residence_ms;
  r.read_queue_ms = ReadQueueMs(d, f.read_residence_ms);
  r.end_ms = f.write_residence_ms;
  if (d.update_residence_share > 0) {
    // Reads and commits wait on the same saturated queues: the residence is split.
    const double share = std::min(1.0, d.update_residence_share);
    const double disks_ms = f.read_residence_ms + f.write_residence_ms;
    r.update_ms = share * disks_ms;
    r.end_ms = (1 - share) * disks_ms;
  }
  AddPacingWait(clients, d, delay_ms, &r);
  return r;
}

}  // namespace pgstorsim
