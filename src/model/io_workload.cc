// The io workload's analytic model (io_workload.h, docs/model.md "Device workloads"):
// the workload's pattern and file locks, and PredictIo's integration of the request
// network (built in io_workload_net.cc) over a run; throttled devices in io_throttled.cc.
#include "model/io_workload.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/units.h"
#include "model/access_geometry.h"
#include "model/drive_reordering.h"
#include "model/io_network.h"
#include "model/io_throttled.h"
#include "model/io_workload_net.h"
#include "model/percentiles.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"
#include "trace/trace_record.h"

namespace pgstorsim {
namespace {

using io_network::Kind;
using io_network::Net;
using io_network::Solution;
using io_network::Solve;
using io_throttled::AddRequestKind;
using io_throttled::IoRegime;
using io_throttled::StorageSetsTheRate;
using io_workload_net::BuildNet;

constexpr int kRampSlices = 8;  // Time slices of a warming (cold) run.

bool TypeIs(const Scenario& s, std::initializer_list<const char*> names) {
  std::string t = s.filesystem.type;
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* n : names) {
    if (t == n) return true;
  }
  return false;
}

}  // namespace

FileLockRules FileLockRulesFor(const Scenario& s) {
  FileLockRules r;
  const bool direct = s.workload.io_direct;
  if (TypeIs(s, {"ufs", "ufs2", "ffs"})) {
    r.writes = r.fsync = r.reads_wait = true;
  } else if (TypeIs(s, {"xfs"})) {
    r.writes = r.reads_wait = !direct;
  } else if (TypeIs(s, {"ext2", "ext3", "ext4", "btrfs", "f2fs"})) {
    r.writes = !direct;
  }
  return r;
}

int64_t IoOsCacheBytes(const Scenario& s, double cache_fraction) {
  if (s.host.os_cache_bytes > 0) return s.host.os_cache_bytes;
  return static_cast<int64_t>(cache_fraction * static_cast<double>(s.host.ram_bytes));
}

IoSpec IoSpecFor(const Scenario& s, const ModelParams& p) {
  const WorkloadConfig& w = s.workload;
  IoSpec spec;
  spec.clients = w.clients;
  spec.depth = w.io_depth;
  spec.io_bytes = w.io_size_bytes;
  spec.file_bytes = w.file_size_bytes;
  spec.read_fraction = std::clamp(w.read_fraction, 0.0, 1.0);
  spec.sequential = w.io_access == IoAccess::kSequential;
  spec.fsync_writes = w.io_fsync_writes;
  spec.direct = w.io_direct;
  spec.rewrite = w.io_rewrite;
  spec.cold = w.cache == CacheState::kCold;
  spec.duration_s = NsToSec(w.duration_ns);
  spec.os_cache_bytes = spec.direct ? 0 : IoOsCacheBytes(s, p.cache_fraction);
  const FsGeometry fs = FsGeometryFor(s);
  spec.fs_block_bytes = std::max<int64_t>(kSectorBytes, fs.fs_block_bytes);
  spec.partial_block_writes = spec.io_bytes % spec.fs_block_bytes != 0;
  spec.readahead_bytes = std::max(spec.io_bytes, s.filesystem.os_readahead_bytes);
  if (spec.direct) spec.readahead_bytes = spec.io_bytes;
  // "adaptive" reads ahead after a read that continues the one before: one stream.
  const ReadAheadPolicy ahead = ControllerReadAheadFor(s);
  if (spec.sequential && (ahead == ReadAheadPolicy::kAlways ||
                          (ahead == ReadAheadPolicy::kAdaptive && spec.in_flight() == 1))) {
    spec.controller_readahead_bytes = ArrayGeometryFor(s).stripe_unit_bytes;
  }
  spec.lock = FileLockRulesFor(s);
  return spec;
}

StatusOr<Prediction> PredictIo(const Scenario& s, const ModelParams& p) {
  if (s.workload.type != WorkloadKind::kIo) return Status::Error("PredictIo: not an io workload");
  const IoSpec spec = IoSpecFor(s, p);
  auto geometry = ComputeAccessGeometry(s, spec.io_bytes, spec.direct);
  if (!geometry.ok()) return geometry.status();
  auto read_geometry = spec.ReadUnitBytes() == spec.io_bytes
                           ? geometry
                           : ComputeAccessGeometry(s, spec.ReadUnitBytes(), spec.direct);
  if (!read_geometry.ok()) return read_geometry.status();
  const DiskCosts costs =
      storage_network::CostsFor(s, p, static_cast<double>(spec.file_bytes), *geometry);
  // The OS cache's share of the file: warm, an LRU holding what fits (a sequential
  // pass over a larger file keeps nothing it will reuse in time); cold, the blocks
  // touched so far, up to that.
  const double cache_share = std::min(
      1.0, static_cast<double>(spec.os_cache_bytes) / static_cast<double>(spec.file_bytes));
  const double warm_cached = spec.sequential ? (cache_share >= 1 ? 1.0 : 0.0) : cache_share;
  const double blocks = static_cast<double>(spec.file_bytes) / spec.fs_block_bytes;
  const double touches = std::max(1.0, static_cast<double>(spec.io_bytes) / spec.fs_block_bytes);
  const bool cold = spec.cold, sequential = spec.sequential;
  const std::function<double(double)> miss_after = [=](double done) {
    if (!cold || sequential) return 1 - warm_cached;
    return 1 - std::min(warm_cached, 1 - std::exp(-done * touches / blocks));
  };
  if (s.disks.type == DiskType::kThrottled) {
    return io_throttled::PredictThrottledIo(s, p, spec, *geometry, *read_geometry, miss_after);
  }
  // On drives that reorder, each slice at the read positioning that agrees with the
  // reads it leaves queued (drive_reordering.h).
  const ReadReorderGain gain =
      ReadReorderGainFor(s, p, static_cast<double>(spec.file_bytes), spec.in_flight());
  const auto build_and_solve = [&](double miss) {
    return SolveWithReorderGain(
        gain,
        [&](double scale) {
          DiskCosts scaled = costs;
          scaled.read_position_ms *= scale;
          Net built = BuildNet(s, p, spec, *geometry, *read_geometry, scaled, miss);
          const Solution sol = Solve(built);
          return std::make_pair(std::move(built), sol);
        },
        [&](const std::pair<Net, Solution>& solved) {
          return ReadsQueuedAtPick(solved.second.reads_at_members, solved.first.read.path_ms,
                                   spec.in_flight());
        });
  };
  // A cold cache warms over the run: the midpoint of each slice solved at the misses
  // after the requests done by then.
  const int slices = spec.cold && !spec.sequential && !spec.direct ? kRampSlices : 1;
  const double slice_ms = spec.duration_s * 1000 / slices;
  double done = 0, time_ms = 0, reads_ms = 0, writes_ms = 0, lock_u = 0, full_w = 0, misses = 0;
  std::vector<double> read_busy(geometry->members.size()), write_busy(read_busy.size());
  Net net;
  // The operations done by a slice's middle come from the previous slice's throughput
  // (the first slice's from its start).
  double x = slices > 1 ? build_and_solve(miss_after(0)).second.x_per_ms : 0;
  for (int i = 0; i < slices; ++i) {
    const double miss = miss_after(done + x * slice_ms / 2);
    auto [built, sol] = build_and_solve(miss);
    net = std::move(built);
    x = sol.x_per_ms;
    const double ops = slices == 1 ? 1 : x * slice_ms;
    done += ops;
    time_ms += slices == 1 ? 1 / x : slice_ms;
    reads_ms += ops * sol.read_ms;
    writes_ms += ops * sol.write_ms;
    lock_u += ops * sol.lock_utilization;
    full_w += ops * sol.cache_full_weight;
    misses +=
        ops * (net.read.share * net.read.device_reads + net.write.share * net.write.device_reads);
    for (size_t m = 0; m < read_busy.size(); ++m) {
      read_busy[m] += ops * sol.read_busy[m] / x;
      write_busy[m] += ops * sol.write_busy[m] / x;
    }
  }
  Prediction out;
  out.tps = out.tps_low = out.tps_high = 1000 * done / time_ms;
  const Status waits = StorageSetsTheRate(out.tps);
  if (!waits.ok()) return waits;
  out.bytes_per_s = out.tps * static_cast<double>(spec.io_bytes);
  const double lock_utilization = lock_u / done;
  out.cache_full_probability = full_w / done;
  const bool writes_longer = net.write.share * writes_ms > net.read.share * reads_ms;
  out.regime =
      IoRegime(lock_utilization, spec.in_flight(), out.cache_full_probability, writes_longer);
  out.file_lock_utilization = lock_utilization;
  out.reads_per_transaction = misses / done;
  out.writes_per_transaction = net.write.share;
  out.read_service_ms = net.read_service_ms;
  out.destage_service_ms = net.destage_service_ms;
  double mean_busy = 0;
  for (size_t m = 0; m < read_busy.size(); ++m) {
    const double r = read_busy[m] / time_ms, w = write_busy[m] / time_ms;
    out.devices.push_back({"disk" + std::to_string(m), r + w, r, w});
    mean_busy += (r + w) / read_busy.size();
  }
  // A request waits for the lock while another holds it: the lock's utilisation by the
  // other n - 1 requests (arrival theorem); a lone request never waits for it.
  const double lock_others = lock_utilization * (net.n - 1.0) / net.n;
  auto add = [&](const char* name, const Kind& k, double own_ms, double mean_ms) {
    StatementShape shape;
    shape.mean_ms = mean_ms;
    shape.fixed_ms = std::min(mean_ms, k.ack_ms + own_ms);
    shape.reads = k.device_reads;
    shape.read_service_ms = net.read_service_ms;
    shape.busy = std::clamp(std::max(mean_busy, k.visits_lock ? lock_others : 0.0), 0.0, 0.99);
    AddRequestKind(name, k.share, shape, &out);
  };
  add(IoOpName(IoOp::kRead), net.read, 0, reads_ms / done);
  add(IoOpName(IoOp::kWrite), net.write, net.sync_write_ms, writes_ms / done);
  // A request's distribution: a read or a write, in their shares.
  out.transaction_percentiles = MixturePercentiles(RequestMix(out));
  return out;
}

}  // namespace pgstorsim
