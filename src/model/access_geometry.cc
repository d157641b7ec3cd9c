#include "model/access_geometry.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>

#include "common/units.h"
#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"

namespace pgstorsim {
namespace {

constexpr int kSampledBlocks = 512;

StatusOr<std::unique_ptr<RaidLayout>> MakeLayout(const Scenario& s) {
  ArrayGeometry g;
  g.level = s.array.level;
  g.members = s.array.disks;
  g.stripe_unit_bytes = s.array.stripe_bytes;
  // Unbounded: the model samples small offsets only; JBOD concatenates members, so
  // its layout needs their size (the sampled blocks then all fall on the first disk).
  g.member_size_bytes = g.level == RaidLevel::kJbod ? s.disks.capacity_bytes : 0;
  if (s.array.spans > 0 && (g.level == RaidLevel::kRaid50 || g.level == RaidLevel::kRaid60)) {
    g.span_members = s.array.disks / s.array.spans;
  }
  auto layout = RaidLayout::Create(g);
  if (!layout.ok()) return layout.status().WithContext("array");
  return std::move(layout).value();
}

// One read: pieces contiguous on a member with an earlier piece merge into its command;
// each piece's work is shared over its mirror copies (balanced reads).
void AddRead(const std::vector<ReadPiece>& pieces, AccessGeometry* g) {
  std::set<int> forks;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const ReadPiece& p = pieces[i];
    bool merged = false;
    for (size_t j = 0; j < i && !merged; ++j) {
      merged = ContinuesOnMember(pieces[j].copies.front(), p.copies.front());
    }
    const double share = 1.0 / p.copies.size();
    for (const MemberExtent& e : p.copies) {
      MemberWork& w = g->members[e.member];
      w.read_bytes += share * e.length_bytes;
      if (!merged) w.read_commands += share;
    }
    if (!merged) g->read_commands += 1;
    forks.insert(p.copies.front().member);
  }
  g->read_forks += forks.size();
}

// True when an extent before `i` ends on the same member where extent i begins.
bool ContinuesEarlierExtent(const std::vector<MemberExtent>& extents, size_t i) {
  for (size_t j = 0; j < i; ++j) {
    if (ContinuesOnMember(extents[j], extents[i])) return true;
  }
  return false;
}

void AddWrite(const WritePlan& plan, AccessGeometry* g) {
  for (const MemberExtent& e : plan.pre_reads) {
    g->members[e.member].pre_read_commands += 1;
    g->members[e.member].pre_read_bytes += e.length_bytes;
    g->write_commands += 1;
  }
  for (size_t i = 0; i < plan.writes.size(); ++i) {
    const MemberExtent& e = plan.writes[i];
    MemberWork& w = g->members[e.member];
    w.write_commands += 1;
    w.write_bytes += e.length_bytes;
    if (!ContinuesEarlierExtent(plan.writes, i)) w.host_write_commands += 1;
    g->write_commands += 1;
  }
}

StatusOr<AccessGeometry> Compute(const Scenario& s) {
  auto layout = MakeLayout(s);
  if (!layout.ok()) return layout.status();
  FsGeometry fg;
  fg.partition_offset_bytes = s.filesystem.partition_offset_bytes;
  fg.fs_block_bytes = s.filesystem.block_size_bytes;
  fg.fragment_bytes = s.filesystem.fragment_size_bytes;
  auto fs = FsMapping::Create(fg);
  if (!fs.ok()) return fs.status().WithContext("filesystem");
  AccessGeometry g;
  g.members.assign(s.array.disks, MemberWork());
  g.read_forks = 0;
  const int64_t block = s.filesystem.block_size_bytes;
  for (int i = 0; i < kSampledBlocks; ++i) {
    // A page of a large file: the filesystem reads its whole block and writes the
    // dirty block's buffer back whole (FsMapping's rules for relation segments).
    const int64_t offset = static_cast<int64_t>(i) * block;
    const DeviceRequest read = fs->MapRead(offset, kPageBytes);
    const DeviceRequest write = fs->MapWrite(offset, kPageBytes);
    AddRead((*layout)->MapRead(read.offset_bytes, read.length_bytes), &g);
    AddWrite((*layout)->MapWrite(write.offset_bytes, write.length_bytes), &g);
  }
  const double n = kSampledBlocks;
  for (MemberWork& w : g.members) {
    for (double* v : {&w.read_commands, &w.read_bytes, &w.write_commands, &w.write_bytes,
                      &w.host_write_commands, &w.pre_read_commands, &w.pre_read_bytes}) {
      *v /= n;
    }
  }
  g.read_forks /= n;
  g.read_commands /= n;
  g.write_commands /= n;
  return g;
}

}  // namespace

double AccessGeometry::ReadMs(size_t m, const DiskCosts& c) const {
  const MemberWork& w = members[m];
  return w.read_commands * c.read_position_ms + w.read_bytes / c.bytes_per_ms;
}

double AccessGeometry::WriteMs(size_t m, const DiskCosts& c) const {
  const MemberWork& w = members[m];
  return w.write_commands * c.destage_position_ms + w.pre_read_commands * c.read_position_ms +
         (w.write_bytes + w.pre_read_bytes) / c.bytes_per_ms;
}

StatusOr<AccessGeometry> ComputeAccessGeometry(const Scenario& s) {
  using Key = std::tuple<int, int, int, int64_t, int64_t, int64_t, int64_t>;
  static std::mutex mu;
  static std::map<Key, AccessGeometry> memo;
  const Key key(static_cast<int>(s.array.level), s.array.disks, s.array.spans, s.array.stripe_bytes,
                s.filesystem.partition_offset_bytes, s.filesystem.block_size_bytes,
                s.array.level == RaidLevel::kJbod ? s.disks.capacity_bytes : 0);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
  }
  auto g = Compute(s);
  if (!g.ok()) return g;
  std::lock_guard<std::mutex> lock(mu);
  memo[key] = *g;
  return g;
}

}  // namespace pgstorsim
