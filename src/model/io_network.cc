// The io workload's closed network solve (io_network.h).
#include "model/io_network.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/mirror_sets.h"
#include "model/mva.h"

namespace pgstorsim::io_network {
namespace {

constexpr double kRegimeWidth = 0.05;  // Logistic width of the cache-full switch (rho).

double Residence(const std::vector<double>& ms, const std::vector<double>& util) {
  double r = 0;
  for (size_t m = 0; m < ms.size(); ++m) r += ms[m] / std::max(1e-3, 1 - util[m]);
  return r;
}

// The network at throughput x (per ms) in the absorbed regime: the lock's hold and the
// disks' background load depend on x; MVA gives the throughput they allow.
struct Eval {
  double x_mva = 0;
  double read_ms = 0, write_ms = 0, lock_util = 0;
  double read_queue_ms = 0;  // Reads' residence at the members per request (all kinds).
};

Eval Evaluate(const Net& net, double x) {
  const size_t m_count = net.members;
  // Background load at each member: destage / write-back, and the paths run under the
  // lock (one at a time, outside the closed chain); `shared` adds the closed paths.
  std::vector<double> background(m_count, 0), shared(m_count, 0);
  // A request's parallel commands load the others: the unlocked requests (all of a
  // locked path's, n - 1 of n of an unlocked one's), never a locked path.
  const double others = (net.n - 1.0) / net.n;
  for (size_t m = 0; m < m_count; ++m) {
    for (const Kind* k : {&net.read, &net.write}) {
      const double beside = k->path_locked ? 0 : others * k->parallel_ms[m];
      const double locked = k->path_locked ? k->path_ms[m] + k->parallel_ms[m] : 0;
      const double unlocked = k->path_locked ? 0 : k->path_ms[m];
      background[m] += x * k->share * (k->open_ms[m] + locked + beside);
      shared[m] += x * k->share * (k->open_ms[m] + k->after_ms[m] + unlocked + beside);
    }
    background[m] = std::min(background[m], 0.99);
  }
  // A path under the lock is the only locked one in progress: it queues behind the
  // background and the unlocked paths.
  auto hold = [&](const Kind& k) {
    double h = k.ack_locked ? k.ack_ms : 0;
    if (k.path_locked) h += Residence(k.path_ms, shared);
    return h;
  };
  const double hold_read = net.read.visits_lock ? hold(net.read) : 0;
  const double hold_write = net.write.visits_lock ? hold(net.write) : 0;
  const double lock_ms = net.read.share * hold_read + net.write.share * hold_write;
  // Stations: members (paths outside the lock, slowed by the background), the lock.
  std::vector<double> demands(m_count, 0);
  std::vector<double> read_part(m_count, 0);
  double delay_ms = 0;
  for (const Kind* k : {&net.read, &net.write}) {
    for (size_t m = 0; m < m_count; ++m) {
      const double path = (k->path_locked ? 0 : k->path_ms[m]) + k->after_ms[m];
      const double d = k->share * path / (1 - background[m]);
      demands[m] += d;
      if (k == &net.read) read_part[m] += d;
    }
    if (!k->ack_locked) delay_ms += k->share * k->ack_ms;
  }
  // Mirror copies are one multi-server station per set (mirror_sets.h). Every path is
  // shared out over the copies: a read's and a synchronous write's waited share (their
  // other pieces' and copies' time is background load, parallel_ms).
  const MemberDemands parts{demands, demands};
  MergedStations stations = MergeMirrorSets(net.mirrors, parts);
  const size_t lock_station = stations.demand_ms.size();
  stations.demand_ms.push_back(lock_ms);
  Eval e;
  double total = delay_ms + stations.delay_ms;
  for (double d : stations.demand_ms) total += d;
  if (!(total > 0)) {
    e.x_mva = 1e9;
    return e;
  }
  const MvaResult mva = SolveMva(net.n, stations.demand_ms, delay_ms + stations.delay_ms);
  e.x_mva = mva.throughput_per_ms;
  const std::vector<double> member_res = MemberResidences(net.mirrors, mva, parts);
  // Latency per request of each kind: its own path's residence at the members, the
  // lock's wait per visit plus its hold, acks.
  double read_res = 0, write_res = 0;
  for (size_t m = 0; m < m_count; ++m) {
    if (demands[m] <= 0) continue;
    const double per_demand = member_res[m] / demands[m];
    read_res += per_demand * read_part[m];
    write_res += per_demand * (demands[m] - read_part[m]);
  }
  const double visits =
      (net.read.visits_lock ? net.read.share : 0) + (net.write.visits_lock ? net.write.share : 0);
  const double lock_wait =
      visits > 0 ? std::max(0.0, mva.residence_ms[lock_station] - lock_ms) / visits : 0;
  auto latency = [&](const Kind& k, double path_res, double hold_ms) {
    if (!(k.share > 0)) return 0.0;
    double ms = path_res / k.share + (k.ack_locked ? 0 : k.ack_ms);
    if (k.visits_lock) ms += lock_wait + hold_ms;
    return ms;
  };
  e.read_queue_ms = read_res / std::max(1e-9, net.read_waited);
  e.read_ms = latency(net.read, read_res, hold_read);
  e.write_ms = latency(net.write, write_res, hold_write);
  e.lock_util = e.x_mva * lock_ms;
  return e;
}

// The absorbed regime's throughput: x = X_mva(x), X_mva falling in x (bisection).
Eval SolveAbsorbed(const Net& net, double* x_out) {
  double lo = 0, hi = Evaluate(net, 0).x_mva;
  for (int it = 0; it < 80 && hi - lo > 1e-9 * hi; ++it) {
    const double mid = (lo + hi) / 2;
    (Evaluate(net, mid).x_mva > mid ? lo : hi) = mid;
  }
  *x_out = lo;
  return Evaluate(net, lo);
}

}  // namespace

Solution Solve(const Net& net) {
  Solution s;
  double xa = 0;
  const Eval a = SolveAbsorbed(net, &xa);
  // Each member's busy ms per request, on the reads' paths and on the writes' (a
  // read's open share is the destage a read-ahead or pre-read leaves behind it).
  s.read_busy.assign(net.members, 0);
  s.write_busy.assign(net.members, 0);
  // Write-back: the cache fills when the destage stream saturates what the paths
  // leave of the disks; then every member's total demand bounds the throughput.
  double rho = 0, busiest = 0;
  for (size_t m = 0; m < net.members; ++m) {
    const double destage =
        net.write.share * net.write.open_ms[m] + net.read.share * net.read.open_ms[m];
    const double write_path = net.write.share * (net.write.path_ms[m] + net.write.parallel_ms[m]);
    const double read_path = net.read.share * (net.read.path_ms[m] + net.read.parallel_ms[m]);
    const double path = write_path + read_path;
    rho = std::max(rho, xa * destage / std::max(1e-6, 1 - xa * path));
    s.read_busy[m] = read_path;
    s.write_busy[m] = destage + write_path;
    busiest = std::max(busiest, destage + path);
  }
  // No member is busy more than all the time: the absorbed regime's MVA counts n - 1
  // of n requests' parallel pieces (Evaluate), so near saturation its throughput can
  // pass what the members' whole busy time per request allows, 1 / busiest; and a
  // full write-back cache holds the throughput there too.
  const bool fills = net.write_back && net.write.share > 0;
  const double w = fills ? 1 / (1 + std::exp(-(rho - net.destage_threshold) / kRegimeWidth)) : 0;
  s.x_per_ms = HeldAtBottleneck(xa, busiest);
  s.cache_full_weight = w;
  s.reads_at_members = xa * a.read_queue_ms;
  // The cycle's extra time at the bound: the writes' wait for room in a cache that
  // fills, else every request's wait at the saturated members.
  const double extra_ms = net.n / s.x_per_ms - net.n / xa;
  s.read_ms = a.read_ms;
  s.write_ms = a.write_ms;
  if (fills) {
    s.write_ms += extra_ms / net.write.share;
  } else {
    s.read_ms += net.read.share > 0 ? extra_ms : 0;
    s.write_ms += net.write.share > 0 ? extra_ms : 0;
  }
  s.lock_utilization = std::min(1.0, a.lock_util * s.x_per_ms / std::max(1e-12, xa));
  for (size_t m = 0; m < net.members; ++m) {
    s.read_busy[m] *= s.x_per_ms;
    s.write_busy[m] *= s.x_per_ms;
  }
  return s;
}

}  // namespace pgstorsim::io_network
