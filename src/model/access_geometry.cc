#include "model/access_geometry.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>

#include "common/units.h"
#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"
#include "model/mva.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

constexpr int kSampledBlocks = 512;
constexpr int64_t kMaxSampledBlocks = 1 << 17;

// The page positions averaged over: granule k of the partition (FileGranuleBytes:
// where files start, so a page of a large file lies at a whole number of granules in
// the filesystem's units) for k in [0, count), where the layout's mapping repeats
// after `count` granules (the period of k * granule mod the layout's period), so the
// average over them is the average over uniformly placed pages. Periods longer than
// kMaxSampledBlocks granules are sampled by the Weyl sequence k_i = i * step mod count
// (step near count / golden ratio, coprime with count): evenly spread over the period,
// never in step with the rows. JBOD has no period: the first kSampledBlocks granules
// (all on the first member).
std::vector<int64_t> SampledBlocks(const RaidLayout& layout, int64_t granule_bytes) {
  int64_t count = kSampledBlocks;
  const int64_t period = layout.period_bytes();
  if (period > 0) count = period / std::gcd(period, granule_bytes);
  std::vector<int64_t> blocks;
  if (count <= kMaxSampledBlocks) {
    for (int64_t k = 0; k < count; ++k) blocks.push_back(k);
    return blocks;
  }
  int64_t step = static_cast<int64_t>(static_cast<double>(count) * 0.6180339887498949);
  while (std::gcd(step, count) != 1) ++step;
  for (int64_t i = 0; i < kMaxSampledBlocks; ++i) {
    blocks.push_back(static_cast<int64_t>((static_cast<__int128>(i) * step) % count));
  }
  return blocks;
}

// A request's work per member (a read's front copies, a write's pieces and pre-reads):
// a few members, so a list searched in order, cleared and reused for every request.
class MemberPaths {
 public:
  void Clear() { paths_.clear(); }
  MemberWork& At(int member) {
    for (auto& [m, work] : paths_) {
      if (m == member) return work;
    }
    paths_.emplace_back(member, MemberWork());
    return paths_.back().second;
  }
  size_t size() const { return paths_.size(); }
  // The path that `shorter` orders last.
  template <typename Shorter>
  MemberWork Longest(Shorter shorter) const {
    MemberWork longest;
    for (const auto& [m, work] : paths_) {
      if (shorter(longest, work)) longest = work;
    }
    return longest;
  }

 private:
  std::vector<std::pair<int, MemberWork>> paths_;
};

// One read: pieces contiguous on a member with an earlier piece merge into its command;
// each piece's work is shared over its mirror copies (balanced reads).
// `leader` (per member: the lowest member holding the same data) is lowered to the
// copies' lowest. `paths`: scratch.
void AddRead(const std::vector<ReadPiece>& pieces, AccessGeometry* g, std::vector<int>* leader,
             MemberPaths* paths) {
  paths->Clear();
  for (size_t i = 0; i < pieces.size(); ++i) {
    const ReadPiece& p = pieces[i];
    bool merged = false;
    for (size_t j = 0; j < i && !merged; ++j) {
      merged = ContinuesOnMember(pieces[j].copies.front(), p.copies.front());
    }
    const double share = 1.0 / p.copies.size();
    int lowest = p.copies.front().member;
    for (const MemberExtent& e : p.copies) lowest = std::min(lowest, e.member);
    for (const MemberExtent& e : p.copies) {
      (*leader)[e.member] = std::min((*leader)[e.member], lowest);
      MemberWork& w = g->members[e.member];
      w.read_bytes += share * e.length_bytes;
      if (!merged) w.read_commands += share;
    }
    if (!merged) g->read_commands += 1;
    MemberWork& path = paths->At(p.copies.front().member);
    path.read_bytes += p.copies.front().length_bytes;
    if (!merged) path.read_commands += 1;
  }
  g->read_forks += paths->size();
  const MemberWork slowest = paths->Longest([](const MemberWork& a, const MemberWork& b) {
    return std::make_pair(a.read_bytes, a.read_commands) <
           std::make_pair(b.read_bytes, b.read_commands);
  });
  g->read_slowest_bytes += slowest.read_bytes;
  g->read_slowest_commands += slowest.read_commands;
}

// True when an extent before `i` ends on the same member where extent i begins.
bool ContinuesEarlierExtent(const std::vector<MemberExtent>& extents, size_t i) {
  for (size_t j = 0; j < i; ++j) {
    if (ContinuesOnMember(extents[j], extents[i])) return true;
  }
  return false;
}

// Orders a write's member paths: more commands, then more bytes.
bool LongerPath(const MemberWork& a, const MemberWork& b) {
  return std::make_pair(a.write_commands + a.pre_read_commands, a.write_bytes + a.pre_read_bytes) <
         std::make_pair(b.write_commands + b.pre_read_commands, b.write_bytes + b.pre_read_bytes);
}

// One write: its member commands (all copies and RAID 5/6 pre-reads); `paths`: scratch.
void AddWrite(const WritePlan& plan, AccessGeometry* g, MemberPaths* paths) {
  paths->Clear();
  for (const MemberExtent& e : plan.pre_reads) {
    for (MemberWork* w : {&g->members[e.member], &paths->At(e.member)}) {
      w->pre_read_commands += 1;
      w->pre_read_bytes += e.length_bytes;
    }
    g->write_commands += 1;
  }
  for (size_t i = 0; i < plan.writes.size(); ++i) {
    const MemberExtent& e = plan.writes[i];
    const bool continues = ContinuesEarlierExtent(plan.writes, i);
    MemberWork& w = g->members[e.member];
    w.write_commands += 1;
    w.write_bytes += e.length_bytes;
    if (!continues) w.host_write_commands += 1;
    g->write_commands += 1;
    MemberWork& path = paths->At(e.member);
    if (!continues) path.write_commands += 1;
    path.write_bytes += e.length_bytes;
  }
  const MemberWork slowest = paths->Longest(LongerPath);
  g->write_members += paths->size();
  MemberWork& sum = g->write_slowest;
  sum.write_commands += slowest.write_commands;
  sum.write_bytes += slowest.write_bytes;
  sum.pre_read_commands += slowest.pre_read_commands;
  sum.pre_read_bytes += slowest.pre_read_bytes;
}

// A random block read as the controller issues it: with read-ahead "always" a miss
// reads on to the end of its stripe unit (the simulator's controller does the same;
// "adaptive" reads ahead only after a sequential read, which random pages never are).
DeviceRequest ControllerRead(DeviceRequest read, int64_t unit_bytes, bool read_ahead_always) {
  if (!read_ahead_always) return read;
  const int64_t end = read.offset_bytes + read.length_bytes;
  read.length_bytes = (end + unit_bytes - 1) / unit_bytes * unit_bytes - read.offset_bytes;
  return read;
}

StatusOr<AccessGeometry> Compute(const ArrayGeometry& array, const FsGeometry& fs_geometry,
                                 bool read_ahead_always, int64_t request_bytes) {
  auto layout = RaidLayout::Create(array);
  if (!layout.ok()) return layout.status().WithContext("array");
  auto fs = FsMapping::Create(fs_geometry);
  if (!fs.ok()) return fs.status().WithContext("filesystem");
  AccessGeometry g;
  g.members.assign(array.members, MemberWork());
  g.read_forks = 0;
  g.read_slowest_commands = 0;
  g.write_members = 0;
  std::vector<int> leader(array.members);
  std::iota(leader.begin(), leader.end(), 0);
  // Requests at multiples of their size in a file that starts on a granule: the
  // positions repeat with the larger of the two.
  const int64_t block = std::max(FileGranuleBytes(fs_geometry), request_bytes);
  const std::vector<int64_t> blocks = SampledBlocks(**layout, block);
  MemberPaths paths;
  for (int64_t k : blocks) {
    // A page of a large file: the filesystem reads its whole block and writes the
    // dirty block's buffer back whole (FsMapping's rules for relation segments).
    const int64_t offset = k * block;
    const DeviceRequest read = ControllerRead(fs->MapRead(offset, request_bytes),
                                              array.stripe_unit_bytes, read_ahead_always);
    const DeviceRequest write = fs->MapWrite(offset, request_bytes);
    AddRead((*layout)->MapRead(read.offset_bytes, read.length_bytes), &g, &leader, &paths);
    AddWrite((*layout)->MapWrite(write.offset_bytes, write.length_bytes), &g, &paths);
  }
  const double n = static_cast<double>(blocks.size());
  for (MemberWork& w : g.members) {
    for (double* v : {&w.read_commands, &w.read_bytes, &w.write_commands, &w.write_bytes,
                      &w.host_write_commands, &w.pre_read_commands, &w.pre_read_bytes}) {
      *v /= n;
    }
  }
  g.mirrors = MirrorSetsOf(leader);
  g.read_forks /= n;
  g.read_slowest_commands /= n;
  g.read_slowest_bytes /= n;
  MemberWork& slowest = g.write_slowest;
  for (double* v : {&g.write_members, &slowest.write_commands, &slowest.write_bytes,
                    &slowest.pre_read_commands, &slowest.pre_read_bytes}) {
    *v /= n;
  }
  g.read_commands /= n;
  g.write_commands /= n;
  return g;
}

// A member's busy ms for its write work: pre-reads, then writes (a write right after its
// own pre-read of the same extent: DiskCosts::rewrite_turn_ms).
double WorkWriteMs(const MemberWork& w, const DiskCosts& c) {
  double rewrites = 0, rewrite_ms = 0;
  if (c.rewrite_turn_ms > 0 && w.pre_read_commands > 0) {
    rewrites = std::min(w.write_commands, w.pre_read_commands);
    const double read_transfer_ms = w.pre_read_bytes / w.pre_read_commands / c.bytes_per_ms;
    rewrite_ms = std::max(0.0, c.rewrite_turn_ms - read_transfer_ms);
  }
  return (w.write_commands - rewrites) * c.destage_position_ms + rewrites * rewrite_ms +
         w.pre_read_commands * c.read_position_ms +
         (w.write_bytes + w.pre_read_bytes) / c.bytes_per_ms;
}

// The share of total_ms (a request's commands' summed busy time) that the request waits
// for, its commands at once on `forks` members: the longer of its longest member path
// (slowest_ms) and the slowest of `forks` commands, 1 + w (H_forks - 1) positionings
// and a mean command's transfer (transfers do not vary).
double WaitedShare(double total_ms, double slowest_ms, double forks, double position_ms,
                   double mean_transfer_ms, double fork_join_weight) {
  if (!(forks > 1) || !(total_ms > 0)) return 1;
  const double slowest_command_ms =
      (1 + fork_join_weight * (ForkJoinFactor(forks) - 1)) * position_ms + mean_transfer_ms;
  return std::min(1.0, std::max(slowest_ms, slowest_command_ms) / total_ms);
}

}  // namespace

double AccessGeometry::ReadMs(size_t m, const DiskCosts& c) const {
  const MemberWork& w = members[m];
  return w.read_commands * c.read_position_ms + w.read_bytes / c.bytes_per_ms;
}

double AccessGeometry::ReadWaitedShare(const DiskCosts& c, double fork_join_weight) const {
  double total_ms = 0, bytes = 0;
  for (size_t m = 0; m < members.size(); ++m) {
    total_ms += ReadMs(m, c);
    bytes += members[m].read_bytes;
  }
  const double slowest_ms =
      read_slowest_commands * c.read_position_ms + read_slowest_bytes / c.bytes_per_ms;
  const double mean_transfer_ms = bytes / std::max(1e-12, read_commands) / c.bytes_per_ms;
  return WaitedShare(total_ms, slowest_ms, read_forks, c.read_position_ms, mean_transfer_ms,
                     fork_join_weight);
}

double AccessGeometry::WholeReadMs(const DiskCosts& c) const {
  double bytes = 0;
  for (const MemberWork& w : members) bytes += w.read_bytes;
  return c.read_position_ms + bytes / c.bytes_per_ms;
}

double AccessGeometry::WholeReadWaitedShare(const DiskCosts& c) const {
  const double total_ms = WholeReadMs(c);
  if (!(read_commands > 1) || !(total_ms > 0)) return 1;
  const double transfer_ms = total_ms - c.read_position_ms;
  return std::min(1.0, (c.read_position_ms + transfer_ms / read_commands) / total_ms);
}

double AccessGeometry::WriteWaitedShare(const DiskCosts& c, double fork_join_weight) const {
  double total_ms = 0, bytes = 0, commands = 0;
  for (size_t m = 0; m < members.size(); ++m) {
    const MemberWork& w = members[m];
    total_ms += SyncWriteMs(m, c);
    bytes += w.write_bytes + w.pre_read_bytes;
    commands += w.host_write_commands + w.pre_read_commands;
  }
  // RAID 5/6: the writes start when the slowest pre-read has ended.
  const double pre_read_wait_ms =
      write_slowest.pre_read_commands > 0
          ? fork_join_weight * (ForkJoinFactor(write_members) - 1) * c.read_position_ms
          : 0;
  const double slowest_ms = WorkWriteMs(write_slowest, c) + pre_read_wait_ms;
  const double mean_transfer_ms = bytes / std::max(1e-12, commands) / c.bytes_per_ms;
  return WaitedShare(total_ms, slowest_ms, write_members, c.destage_position_ms, mean_transfer_ms,
                     fork_join_weight);
}

double AccessGeometry::WriteMs(size_t m, const DiskCosts& c) const {
  return WorkWriteMs(members[m], c);
}

double AccessGeometry::SyncWriteMs(size_t m, const DiskCosts& c) const {
  MemberWork w = members[m];
  w.write_commands = w.host_write_commands;
  return WorkWriteMs(w, c);
}

StatusOr<AccessGeometry> ComputeAccessGeometry(const Scenario& s) {
  return ComputeAccessGeometry(s, kPageBytes, false);
}

StatusOr<AccessGeometry> ComputeAccessGeometry(const Scenario& s, int64_t request_bytes,
                                               bool direct) {
  using Key = std::tuple<int, int, int64_t, int64_t, int, int64_t, int64_t, int64_t, int64_t, bool,
                         int64_t>;
  static std::mutex mu;
  static std::map<Key, AccessGeometry> memo;
  const ArrayGeometry a = ArrayGeometryFor(s);
  FsGeometry f = FsGeometryFor(s);
  if (direct) f.fs_block_bytes = f.fragment_bytes = 0;  // O_DIRECT: the request itself.
  const bool always = ControllerReadAheadFor(s) == ReadAheadPolicy::kAlways;
  const Key key(static_cast<int>(a.level), a.members, a.stripe_unit_bytes, a.member_size_bytes,
                a.span_members, a.span_stripe_bytes, f.partition_offset_bytes, f.fs_block_bytes,
                f.fragment_bytes, always, request_bytes);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
  }
  auto g = Compute(a, f, always, request_bytes);
  if (!g.ok()) return g;
  std::lock_guard<std::mutex> lock(mu);
  memo[key] = *g;
  return g;
}

}  // namespace pgstorsim
