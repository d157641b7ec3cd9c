// The OS page cache's fill (page_cache_fill.h).
#include "model/page_cache_fill.h"

#include <algorithm>
#include <limits>

#include "model/destage_cost.h"
#include "pgmodel/host_scenario.h"

namespace pgstorsim::storage_network {
namespace {

// Write commands in flight at member m while the disks write all the time they have.
double WritesInFlight(const Network& net, size_t m) {
  const auto& members = net.geometry.members;
  if (!(members[m].write_commands > 0)) return 0;
  if (net.write_back) return kDestagesInFlightPerMember;
  double all = 0;
  for (const MemberWork& w : members) all += w.write_commands;
  return pgmodel::OsWritesInFlight(*net.s) * members[m].write_commands / all;
}

}  // namespace

Point SolveFillPoint(const Network& net, const OpLoad& load, double reads, Point pt) {
  const size_t members = pt.d.read_ms.size();
  const std::vector<double> read_ms = pt.d.read_ms;
  std::vector<double> write_ms(members);  // Busy ms per data write, per member.
  for (size_t m = 0; m < members; ++m) {
    write_ms[m] = net.geometry.WriteMs(m, net.costs);
    const double commands = net.geometry.members[m].write_commands;
    const double per_command_ms = commands > 0 ? write_ms[m] / commands : 0;
    pt.d.read_ms[m] +=
        reads * net.geometry.members[m].read_commands * WritesInFlight(net, m) * per_command_ms;
    pt.d.write_ms[m] = 0;
  }
  const double delay_ms = load.delay_ms + net.commit_ms * load.commits_per_op;
  pt.a = pt.b = SolveReadBound(net.s->workload.clients, pt.d, delay_ms);
  pt.weight = 0;
  pt.x_per_ms = pt.a.x_per_ms;
  pt.fill_writes_per_ms = std::numeric_limits<double>::infinity();
  for (size_t m = 0; m < members; ++m) {
    pt.d.read_ms[m] = read_ms[m];
    const double left = std::max(0.0, 1 - pt.x_per_ms * read_ms[m]);
    if (!(write_ms[m] > 0)) continue;
    pt.d.write_ms[m] = left / pt.x_per_ms;
    pt.fill_writes_per_ms = std::min(pt.fill_writes_per_ms, left / write_ms[m]);
  }
  if (!(pt.fill_writes_per_ms < std::numeric_limits<double>::infinity())) {
    pt.fill_writes_per_ms = 0;
  }
  return pt;
}

double FillGrowthPerMs(const OpLoad& load, const Point& fill) {
  return fill.x_per_ms * load.dirtied_per_op - fill.fill_writes_per_ms;
}

}  // namespace pgstorsim::storage_network
