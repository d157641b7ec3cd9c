// The io workload on a throttled device (io_throttled.h, docs/model.md "Device
// workloads"): the pgbench model's paced network with one operation per request, and
// the request kinds and regime both io paths report.
#include "model/io_throttled.h"

#include <algorithm>
#include <utility>

#include "common/units.h"
#include "device/throttle_slice.h"
#include "model/percentiles.h"
#include "model/regimes.h"
#include "model/storage_network.h"
#include "trace/trace_record.h"

namespace pgstorsim::io_throttled {
namespace {

// Above this the storage does not set the rate (nothing waits for it).
constexpr double kMaxIops = 1e7;

// A request's shape on a throttled cap of `iops` that serves it in `service_ms`
// unthrottled: its `reads` device reads, and a wait for the cap's next slice (the slice
// less its budget's service; device/throttle_slice.h) for the rest. m = that wait over a
// slice: below one, a share m of the requests waits one slice; above, every request
// waits about m slices, give or take half of one (a gamma of squared coefficient of
// variation 1 / (2m)^2).
StatementShape ThrottledShape(double mean_ms, double fixed_ms, double reads, double service_ms,
                              double iops) {
  StatementShape shape;
  shape.mean_ms = mean_ms;
  shape.fixed_ms = std::min(mean_ms, fixed_ms);
  shape.reads = reads;
  shape.read_service_ms = service_ms;
  const double slice_ms =
      std::max(service_ms, NsToMs(kThrottleSliceNs) - ThrottleSliceBudget(iops) * service_ms);
  shape.room_ms = std::max(0.0, mean_ms - shape.fixed_ms - reads * service_ms);
  const double m = shape.room_ms / slice_ms;
  shape.room_busy = std::min(1.0, m);
  shape.room_commands = m <= 1 ? kMaxWaitCommands : 4 * m * m;
  return shape;
}

// A request's time on the device without its cap: its latency and its transfer.
double UnthrottledMs(int64_t latency_ns, int64_t bytes_per_s, double bytes) {
  return NsToMs(latency_ns) +
         (bytes_per_s > 0 ? 1000 * bytes / static_cast<double>(bytes_per_s) : 0);
}

// Device reads per request of each kind once the OS cache misses `miss` of them: a
// read request's share of its device read (io_size / read unit: a read-ahead window
// serves several), a partial-block write's block read.
struct ReadsPerRequest {
  double read = 0, write = 0;
};
ReadsPerRequest ReadsAt(const IoSpec& spec, double miss) {
  const double per_unit =
      static_cast<double>(spec.io_bytes) / static_cast<double>(spec.ReadUnitBytes());
  return {miss * per_unit, spec.WritesReadUncachedBlocks() ? miss : 0};
}

// What one request asks of the storage: its device reads when not cached (ReadsAt), its
// write, and a durable write's wait at the cap. `g`: the request's pieces for its
// writes and a device read's for its reads.
storage_network::OpLoad RequestLoad(const IoSpec& spec, const AccessGeometry& g,
                                    const std::function<double(double)>& miss_after) {
  storage_network::OpLoad load;
  const double r = spec.read_fraction;
  load.reads_after = [=](double done) {
    const ReadsPerRequest at = ReadsAt(spec, miss_after(done));
    return r * at.read + (1 - r) * at.write;
  };
  load.warming = spec.cold && !spec.direct;
  load.duration_s = spec.duration_s;
  load.writes_per_op = 1 - r;
  load.commits_per_op = spec.direct || spec.fsync_writes ? 1 - r : 0;
  load.footprint_bytes = static_cast<double>(spec.file_bytes);
  load.geometry = &g;
  return load;
}

// `g`'s writes with `read_g`'s reads.
AccessGeometry WithReadsOf(const AccessGeometry& g, const AccessGeometry& read_g) {
  AccessGeometry out = g;
  for (size_t m = 0; m < out.members.size() && m < read_g.members.size(); ++m) {
    out.members[m].read_commands = read_g.members[m].read_commands;
    out.members[m].read_bytes = read_g.members[m].read_bytes;
  }
  out.read_forks = read_g.read_forks;
  out.read_slowest_commands = read_g.read_slowest_commands;
  out.read_slowest_bytes = read_g.read_slowest_bytes;
  out.read_commands = read_g.read_commands;
  return out;
}

// The read caps' busy ms (all members) per device read and per write (RAID 5/6
// pre-reads).
std::pair<double, double> ReadCapMs(const storage_network::Network& net) {
  Demands per_read, per_write;
  storage_network::ThrottledDemands(net, 1, 0, &per_read);
  storage_network::ThrottledDemands(net, 0, 1, &per_write);
  double read_ms = 0, pre_read_ms = 0;
  for (size_t k = 0; k < net.geometry.members.size(); ++k) {
    read_ms += per_read.read_ms[k];
    pre_read_ms += per_write.read_ms[k];
  }
  return {read_ms, pre_read_ms};
}

}  // namespace

Status StorageSetsTheRate(double requests_per_s) {
  if (requests_per_s < kMaxIops) return Status::Ok();
  return Status::Error(
      "workload.type = io: no request waits for the storage (every read hits the OS "
      "cache and no write is synchronous), so the rate is the CPU's, which the io model "
      "does not answer; use a larger workload.file_size, io_direct or io_fsync_writes");
}

std::string IoRegime(double lock_utilization, int in_flight, double cache_full,
                     bool writes_longer) {
  if (lock_utilization > 0.9 && in_flight > 1) return "file-lock-bound";
  if (cache_full >= 0.5) return "destage-bound";
  return writes_longer ? "write-bound" : "read-bound";
}

void AddRequestKind(const char* name, double share, const StatementShape& shape, Prediction* out) {
  if (!(share > 0)) return;
  out->statement_latency_ms[name] = shape.mean_ms;
  out->transaction_latency_ms += share * shape.mean_ms;
  out->statement_percentiles[name] = StatementPercentiles(shape);
  out->statement_shapes[name] = shape;
  out->statement_shares[name] = share;
}

// The pgbench model's paced network with one operation per request (RequestLoad). A
// request's mean latency is the cycle (Little's law: in flight / throughput) split by
// kind: the read caps' residence in proportion to the demand each kind puts there (read
// requests' device reads; writes' block reads and RAID 5/6 pre-reads) and the read
// requests' device latency to the reads, the rest to the writes.
StatusOr<Prediction> PredictThrottledIo(const Scenario& s, const ModelParams& p, const IoSpec& spec,
                                        const AccessGeometry& g, const AccessGeometry& read_g,
                                        const std::function<double(double)>& miss_after) {
  Scenario t = s;
  t.workload.clients = spec.in_flight();
  t.workload.duration_ns = static_cast<int64_t>(spec.duration_s * 1e9);
  const AccessGeometry geometry = WithReadsOf(g, read_g);
  const storage_network::OpLoad load = RequestLoad(spec, geometry, miss_after);
  ModelParams q = p;
  q.update_residence_share = 0;  // Splits pgbench's statements; requests split by kind.
  auto net = storage_network::MakeNetwork(t, q, load);
  if (!net.ok()) return net.status();
  const storage_network::Solved solved = storage_network::SolveNetwork(*net, load);
  Prediction out = solved.out;
  const Status waits = StorageSetsTheRate(out.tps);
  if (!waits.ok()) return waits;
  out.bytes_per_s = out.tps * static_cast<double>(spec.io_bytes);
  const double r = spec.read_fraction;
  // The run's device reads per request, split by kind as ReadsAt splits them.
  const ReadsPerRequest unit = ReadsAt(spec, 1);
  const double unit_total = r * unit.read + (1 - r) * unit.write;
  const double own = unit_total > 0 ? r * unit.read / unit_total : 1;
  const double reads = out.reads_per_transaction;
  const auto [read_cap_ms, pre_read_cap_ms] = ReadCapMs(*net);
  const double on_reads = reads * own * read_cap_ms;
  const double on_caps = reads * read_cap_ms + (1 - r) * pre_read_cap_ms;
  const double cycle_ms = spec.in_flight() * 1000 / out.tps;
  const double read_kind_ms =
      std::min(cycle_ms, (on_caps > 0 ? solved.update_ms * on_reads / on_caps : 0) +
                             reads * own * NsToMs(s.disks.read_latency_ns));
  const double write_kind_ms = cycle_ms - read_kind_ms;
  const DiskConfig& disk = s.disks;
  const double io = static_cast<double>(spec.io_bytes);
  const double read_ms = UnthrottledMs(disk.read_latency_ns, disk.read_bandwidth_bytes_per_s, io);
  const double write_ms =
      UnthrottledMs(disk.write_latency_ns, disk.write_bandwidth_bytes_per_s, io);
  if (r > 0) {
    AddRequestKind(IoOpName(IoOp::kRead), r,
                   ThrottledShape(read_kind_ms / r, 0, reads * own / r, read_ms, disk.read_iops),
                   &out);
  }
  if (r < 1) {
    const double waited = load.commits_per_op > 0 ? write_ms : 0;
    AddRequestKind(IoOpName(IoOp::kWrite), 1 - r,
                   ThrottledShape(write_kind_ms / (1 - r), waited, reads * (1 - own) / (1 - r),
                                  read_ms, disk.write_iops),
                   &out);
  }
  out.transaction_percentiles = MixturePercentiles(RequestMix(out));
  // The write-capacity weight: whether the write caps hold the requests at their rate.
  double write_cap_busy = 0;
  for (const DeviceLoad& d : out.devices) {
    write_cap_busy = std::max(write_cap_busy, d.destage_utilization);
  }
  out.cache_full_probability = write_cap_busy >= 0.99 ? 1 : 0;
  out.regime = IoRegime(0, spec.in_flight(), 0, write_kind_ms > read_kind_ms);
  return out;
}

}  // namespace pgstorsim::io_throttled
