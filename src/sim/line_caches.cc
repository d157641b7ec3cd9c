#include "sim/line_caches.h"

#include <algorithm>
#include <limits>

namespace pgstorsim {
namespace sim {

WriteCache::WriteCache(int64_t capacity_bytes, int64_t line_bytes, DestageOrder order)
    : capacity_bytes_(capacity_bytes), line_bytes_(line_bytes), order_(order) {}

int64_t WriteCache::Growth(const Line* line, int64_t lo, int64_t hi) const {
  if (line == nullptr) return hi - lo;
  const int64_t cur_lo = line->in_flight ? line->re_lo : line->lo;
  const int64_t cur_hi = line->in_flight ? line->re_hi : line->hi;
  if (cur_hi <= cur_lo) return hi - lo;
  return (std::max(hi, cur_hi) - std::min(lo, cur_lo)) - (cur_hi - cur_lo);
}

bool WriteCache::Fits(int64_t offset_bytes, int64_t length_bytes) const {
  int64_t growth = 0;
  ForEachLinePiece(offset_bytes, length_bytes,
                   [&](int64_t off, int64_t len) { growth += LineGrowth(off, len); });
  return dirty_bytes_ + growth <= capacity_bytes_;
}

bool WriteCache::Add(int64_t offset_bytes, int64_t length_bytes) {
  bool absorbed = true;
  ForEachLinePiece(offset_bytes, length_bytes, [&](int64_t off, int64_t len) {
    absorbed = const_cast<WriteCache*>(this)->AddToLine(off, len) && absorbed;
  });
  return absorbed;
}

int64_t WriteCache::LineGrowth(int64_t offset_bytes, int64_t length_bytes) const {
  const int64_t line = offset_bytes / line_bytes_;
  const int64_t lo = offset_bytes - line * line_bytes_;
  return Growth(lines_.Find(line), lo, lo + length_bytes);
}

bool WriteCache::AddToLine(int64_t offset_bytes, int64_t length_bytes) {
  const int64_t line = offset_bytes / line_bytes_;
  const int64_t lo = offset_bytes - line * line_bytes_;
  const int64_t hi = lo + length_bytes;
  bool inserted = false;
  Line& l = *lines_.Insert(line, &inserted);
  const int64_t growth = Growth(inserted ? nullptr : &l, lo, hi);
  dirty_bytes_ += growth;
  int64_t& cur_lo = l.in_flight ? l.re_lo : l.lo;
  int64_t& cur_hi = l.in_flight ? l.re_hi : l.hi;
  if (cur_hi <= cur_lo) {
    cur_lo = lo;
    cur_hi = hi;
    if (!l.in_flight && order_ == DestageOrder::kFifo) fifo_.push_back(line);
  } else {
    cur_lo = std::min(cur_lo, lo);
    cur_hi = std::max(cur_hi, hi);
  }
  return growth == 0;
}

bool WriteCache::Covers(int64_t offset_bytes, int64_t length_bytes) const {
  const int64_t line = offset_bytes / line_bytes_;
  const Line* found = lines_.Find(line);
  if (found == nullptr) return false;
  const int64_t lo = offset_bytes - line * line_bytes_;
  const Line& l = *found;
  const bool in_main = l.hi > l.lo && l.lo <= lo && lo + length_bytes <= l.hi;
  const bool in_re = l.re_hi > l.re_lo && l.re_lo <= lo && lo + length_bytes <= l.re_hi;
  return in_main || in_re;
}

bool WriteCache::NextDestage(int64_t* line, int64_t* offset_bytes, int64_t* length_bytes) {
  int64_t next = 0;
  if (order_ == DestageOrder::kFifo) {
    // Lines taken out of order (TakeLine) leave stale entries: skip them.
    do {
      if (fifo_.empty()) return false;
      next = fifo_.front();
      fifo_.pop_front();
    } while (lines_.Find(next) == nullptr || lines_.Find(next)->in_flight);
  } else if (!lines_.NextIdle(cursor_line_, &next) &&
             !lines_.NextIdle(std::numeric_limits<int64_t>::min(), &next)) {
    return false;  // Elevator: the next idle line at or after the cursor, wrapping.
  }
  Line* l = lines_.Find(next);
  if (l == nullptr) return false;
  lines_.SetInFlight(next, l, true);
  *line = next;
  *offset_bytes = next * line_bytes_ + l->lo;
  *length_bytes = l->hi - l->lo;
  cursor_line_ = next + 1;
  return true;
}

void WriteCache::DestageDone(int64_t line) {
  Line* l = lines_.Find(line);
  if (l == nullptr) return;
  dirty_bytes_ -= l->hi - l->lo;
  if (l->re_hi > l->re_lo) {
    *l = Line{l->re_lo, l->re_hi, 0, 0, true};
    lines_.SetInFlight(line, l, false);
    if (order_ == DestageOrder::kFifo) fifo_.push_back(line);
  } else {
    lines_.Erase(line);
  }
}

bool WriteCache::IdleDirtyRange(int64_t line, int64_t* lo_bytes, int64_t* hi_bytes) const {
  const Line* l = lines_.Find(line);
  if (l == nullptr || l->in_flight || l->hi <= l->lo) return false;
  *lo_bytes = l->lo;
  *hi_bytes = l->hi;
  return true;
}

void WriteCache::TakeLine(int64_t line) { lines_.SetInFlight(line, lines_.Find(line), true); }

ReadCache::ReadCache(int64_t capacity_bytes) : capacity_blocks_(capacity_bytes / kBlockBytes) {}

bool ReadCache::Lookup(int64_t offset_bytes, int64_t length_bytes) {
  if (capacity_blocks_ <= 0) return false;
  const bool hit = ForEachLine(offset_bytes, length_bytes, [&](int64_t line, uint64_t mask) {
    const int32_t n = FindNode(line);
    return n >= 0 && (nodes_[n].mask & mask) == mask;
  });
  if (hit) Insert(offset_bytes, length_bytes);  // Refresh.
  return hit;
}

void ReadCache::Insert(int64_t offset_bytes, int64_t length_bytes) {
  if (capacity_blocks_ <= 0) return;
  ForEachLine(offset_bytes, length_bytes, [&](int64_t line, uint64_t mask) {
    int32_t n = FindNode(line);
    if (n < 0) {
      n = static_cast<int32_t>(nodes_.Acquire());
      nodes_[n] = Node{line, 0, -1, -1};
      SetNode(line, n);
    } else {
      order_.Unlink(&nodes_, n);
    }
    Node& node = nodes_[n];
    used_blocks_ += __builtin_popcountll(mask & ~node.mask);
    node.mask |= mask;
    order_.PushFront(&nodes_, n);
    return true;
  });
  EvictIfFull();
}

int32_t ReadCache::FindNode(int64_t line) const {
  const int32_t* node = index_.Find(line);
  return node == nullptr ? -1 : *node;
}

void ReadCache::SetNode(int64_t line, int32_t node) {
  if (node < 0) {
    index_.Erase(line);
  } else {
    *index_.Get(line) = node;
  }
}

void ReadCache::EvictIfFull() {
  while (used_blocks_ > capacity_blocks_ && order_.tail() >= 0) {
    const int32_t victim = order_.tail();
    order_.Unlink(&nodes_, victim);
    used_blocks_ -= __builtin_popcountll(nodes_[victim].mask);
    SetNode(nodes_[victim].line, -1);
    nodes_.Release(static_cast<uint32_t>(victim));
  }
}

}  // namespace sim
}  // namespace pgstorsim
