#include "replay/member_merge.h"

#include <algorithm>
#include <tuple>

namespace pgstorsim {
namespace {

bool Continues(const IoRequest& a, const IoRequest& b) {
  return a.target == b.target && a.direction == b.direction && a.direction != IoDirection::kFsync &&
         a.offset_bytes + a.length_bytes == b.offset_bytes;
}

// True if every segment starts where the previous one ends in memory.
bool AdjacentInMemory(const iovec* segments, int count) {
  for (int i = 1; i < count; ++i) {
    const auto* end = static_cast<const char*>(segments[i - 1].iov_base) + segments[i - 1].iov_len;
    if (end != segments[i].iov_base) return false;
  }
  return true;
}

}  // namespace

void MemberMerger::AddToGroups(const IoRequest& r, size_t index) {
  segments_.push_back({r.buffer, static_cast<size_t>(r.length_bytes)});
  if (!groups_.empty()) {
    Group& g = groups_.back();
    if (g.segments < kMaxIoSegments && Continues(g.request, r)) {
      g.request.length_bytes += r.length_bytes;
      g.first = std::min(g.first, index);
      ++g.segments;
      return;
    }
  }
  Group g;
  g.first = index;
  g.request = r;
  g.segment_begin = segments_.size() - 1;
  g.segments = 1;
  groups_.push_back(g);
}

IoRequest MemberMerger::Finish(const Group& g) const {
  IoRequest r = g.request;
  r.segments = nullptr;
  r.segment_count = 0;
  const iovec* segments = segments_.data() + g.segment_begin;
  if (g.segments > 1 && !AdjacentInMemory(segments, g.segments)) {
    r.segments = segments;
    r.segment_count = g.segments;
  }
  return r;
}

void MemberMerger::Merge(std::vector<IoRequest>* requests) {
  std::vector<IoRequest>& in = *requests;
  order_.resize(in.size());
  for (size_t i = 0; i < in.size(); ++i) order_[i] = i;
  std::stable_sort(order_.begin(), order_.end(), [&in](size_t a, size_t b) {
    return std::tie(in[a].target, in[a].direction, in[a].offset_bytes) <
           std::tie(in[b].target, in[b].direction, in[b].offset_bytes);
  });
  groups_.clear();
  segments_.clear();
  segments_.reserve(in.size());  // No reallocation: Finish() points into it.
  for (size_t i : order_) AddToGroups(in[i], i);
  if (groups_.size() == in.size()) return;  // Nothing merged: keep the input as is.
  std::sort(groups_.begin(), groups_.end(),
            [](const Group& a, const Group& b) { return a.first < b.first; });
  in.clear();
  for (const Group& g : groups_) in.push_back(Finish(g));
}

}  // namespace pgstorsim
