// AddPercentiles (percentiles.h): each statement's shape from a solved prediction.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "model/cpu_demand.h"
#include "model/percentiles.h"
#include "pgmodel/host_scenario.h"

namespace pgstorsim {
namespace {

// The disks' load from the prediction's devices (the CPU's entry left out): their mean
// utilisation, and the destage busy time per transaction (ms) at the busiest member and
// summed over members.
struct DiskLoad {
  double mean_utilization = 0;
  double destage_busiest_ms = 0, destage_total_ms = 0;
};

DiskLoad DiskLoadOf(const Prediction& p) {
  DiskLoad out;
  int disks = 0;
  for (const DeviceLoad& d : p.devices) {
    if (d.name == "cpu") continue;
    out.mean_utilization += d.utilization;
    ++disks;
    if (!(p.tps > 0)) continue;
    const double ms = d.destage_utilization * 1000 / p.tps;
    out.destage_busiest_ms = std::max(out.destage_busiest_ms, ms);
    out.destage_total_ms += ms;
  }
  if (disks > 0) out.mean_utilization /= disks;
  return out;
}

}  // namespace

void AddPercentiles(const Scenario& s, const ModelParams& params, Prediction* p) {
  const DiskLoad disks = DiskLoadOf(*p);
  const bool writes = s.workload.type != WorkloadKind::kSelectOnly;
  const bool write_back = writes && s.controller.EffectiveWriteBack();
  // A full write-back cache makes the commits that write to it wait in stalls: a
  // commit's WAL write queues for room behind the OS's data writes in flight.
  const bool commits_queue = write_back && pgmodel::CommitsWriteToDataVolume(s.postgres);
  const double stall_ms = commits_queue ? p->commit_behind_os_writes_ms : 0;
  // With the cache full, a commit that finds other commits ahead of it waits until the
  // destages have freed its lines: its transaction's destage time at the busiest
  // member, spanning the destage commands of its writes on all members. It sees the
  // other N - 1 clients (arrival theorem): alone, its room was freed while it ran.
  const int clients = std::max(1, s.workload.clients);
  const double others = (clients - 1.0) / clients;
  const double saturated = writes ? p->destage_saturated_share : 0;
  std::map<std::string, StatementShape> shapes;
  for (const auto& [name, ms] : p->statement_latency_ms) {
    StatementShape shape;
    shape.mean_ms = ms;
    shape.fixed_ms = StatementCpuShare(name) * params.cpu_ms;
    shape.stall_ms = stall_ms;
    shape.saturated = saturated;
    shape.command_ms = p->destage_service_ms;
    if (name == "END" && commits_queue) {
      shape.fixed_ms += params.commit_ms;
      shape.room_busy = saturated * others;
      shape.room_ms = shape.room_busy * disks.destage_busiest_ms;
      if (p->destage_service_ms > 0) {
        shape.room_commands = disks.destage_total_ms / p->destage_service_ms;
      }
    }
    if (name == "END" && !write_back && p->wal_flush_ms > 0) {
      // The commit's own flush, and its waits behind the OS's writes in checkpoint bursts.
      shape.fixed_ms += p->wal_flush_ms;
      shape.burst_mean_ms = p->checkpoint_stall_ms;
      shape.burst_ms = p->burst_flush_wait_ms;
      shape.flush_wait_ms = p->wal_flush_wait_ms;
      shape.flush_ms = p->wal_flush_ms;
    }
    if (name == (writes ? "UPDATE accounts" : "SELECT accounts")) {
      shape.reads = p->reads_per_transaction;
      shape.read_service_ms = p->read_service_ms;
      shape.busy = disks.mean_utilization;
    }
    shape.fixed_ms = std::min(shape.fixed_ms, shape.mean_ms);
    p->statement_percentiles[name] = StatementPercentiles(shape);
    shapes[name] = shape;
  }
  if (shapes.empty()) return;
  p->transaction_percentiles = TransactionPercentiles(shapes);
  p->stalled_transaction_share = StalledShare(shapes);
  p->statement_shapes = std::move(shapes);
}

}  // namespace pgstorsim
