#include "layout/raid_layout.h"

#include <algorithm>
#include <limits>
#include <map>

#include "common/units.h"
#include "layout/raid_levels.h"

namespace pgstorsim {

using raid_levels::DataUnitsPerRow;
using raid_levels::Parities;
using raid_levels::SpanLevel;

namespace {

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max() / 4;

// Where one stripe unit of the logical address space lives.
// The members holding a unit's copies: consecutive at every level (one member; a
// RAID 1 set; a RAID 10 pair), so a range that iterates without allocating.
struct CopyRange {
  int first = 0;
  int count = 0;
  struct Iterator {
    int member;
    int operator*() const { return member; }
    Iterator& operator++() {
      ++member;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return member != other.member; }
  };
  Iterator begin() const { return {first}; }
  Iterator end() const { return {first + count}; }
  size_t size() const { return static_cast<size_t>(count); }
  int operator[](int i) const { return first + i; }
};

struct UnitLocation {
  int64_t row = 0;      // Unit-sized row on the member(s): member offset = row * unit.
  int64_t stripe = 0;   // Array-wide stripe id (parity group).
  int64_t in_unit = 0;  // Offset of the piece inside its stripe unit.
  CopyRange copies;
  int parity_p = -1;  // Member holding P for this stripe, or -1.
  int parity_q = -1;  // Member holding Q, or -1.
  int data_index = 0;
};

int64_t Gcd(int64_t a, int64_t b) { return b == 0 ? a : Gcd(b, a % b); }

class RaidLayoutImpl : public RaidLayout {
 public:
  explicit RaidLayoutImpl(const ArrayGeometry& g) : g_(g) {
    unit_ = g.stripe_unit_bytes;
    member_units_ = g.member_size_bytes > 0 ? g.member_size_bytes / unit_ : kUnbounded / unit_;
    const int n = g.members;
    if (IsSpannedLevel(g.level)) {
      spans_ = n / g.span_members;
      span_stripe_ = g.span_stripe_bytes > 0 ? g.span_stripe_bytes : unit_;
      group_ = g.span_members;
      data_units_per_row_ = DataUnitsPerRow(SpanLevel(g.level), group_);
    } else {
      group_ = n;
      data_units_per_row_ = g.level == RaidLevel::kJbod ? n : DataUnitsPerRow(g.level, n);
    }
    // A group's (the array's, or one span's) mapping repeats after its rows rotate.
    const int64_t rotation = Parities(g.level) > 0 ? group_ : 1;
    const int64_t group_period = unit_ * data_units_per_row_ * rotation;
    if (g.level == RaidLevel::kJbod) {
      period_ = 0;
    } else if (spans_ > 0) {
      period_ = spans_ * (span_stripe_ / Gcd(span_stripe_, group_period) * group_period);
    } else {
      period_ = group_period;
    }
    capacity_ = ComputeCapacity();
  }

  const ArrayGeometry& geometry() const override { return g_; }
  int64_t capacity_bytes() const override { return capacity_; }
  int64_t period_bytes() const override { return period_; }

  bool StripeDataRange(int64_t offset, int64_t* start, int64_t* length) const override {
    if (Parities(g_.level) == 0) return false;
    const int64_t row_bytes = data_units_per_row_ * unit_;
    if (spans_ > 0 && span_stripe_ % row_bytes != 0) return false;
    *start = offset / row_bytes * row_bytes;
    *length = row_bytes;
    return true;
  }

  void MapReadInto(int64_t offset, int64_t length, std::vector<ReadPiece>* pieces) const override {
    size_t n = 0;
    ForEachPiece(offset, length, [&](int64_t logical, int64_t len, const UnitLocation& loc) {
      if (n == pieces->size()) pieces->emplace_back();
      ReadPiece& piece = (*pieces)[n++];
      piece.logical_offset_bytes = logical;
      piece.length_bytes = len;
      piece.copies.clear();
      const int64_t member_offset = loc.row * unit_ + loc.in_unit;
      for (int m : loc.copies) {
        piece.copies.push_back(DataExtent(m, member_offset, len, loc, logical));
      }
    });
    pieces->resize(n);
  }

  void MapWriteInto(int64_t offset, int64_t length, WritePlan* out) const override {
    WritePlan& plan = *out;
    plan.pre_reads.clear();
    plan.writes.clear();
    struct StripeState {
      int64_t covered = 0, lo = 0, hi = 0, row = 0;
      int p = -1, q = -1;
      std::vector<MemberExtent> data;
    };
    std::map<int64_t, StripeState> stripes;  // Ordered: deterministic output.
    ForEachPiece(offset, length, [&](int64_t logical, int64_t len, const UnitLocation& loc) {
      const int64_t in_unit = loc.in_unit;
      const int64_t member_offset = loc.row * unit_ + in_unit;
      if (loc.parity_p < 0) {
        for (int m : loc.copies) {
          plan.writes.push_back(DataExtent(m, member_offset, len, loc, logical));
        }
        return;
      }
      auto [it, fresh] = stripes.try_emplace(loc.stripe);
      StripeState& s = it->second;
      if (fresh) {
        s.lo = in_unit;
        s.hi = in_unit + len;
        s.row = loc.row;
        s.p = loc.parity_p;
        s.q = loc.parity_q;
      }
      s.covered += len;
      s.lo = std::min(s.lo, in_unit);
      s.hi = std::max(s.hi, in_unit + len);
      s.data.push_back(DataExtent(loc.copies[0], member_offset, len, loc, logical));
    });
    for (auto& [stripe, s] : stripes) {
      const bool full = s.covered == data_units_per_row_ * unit_;
      std::vector<MemberExtent> parity;
      parity.push_back(
          ParityExtent(s.p, s.row * unit_ + s.lo, s.hi - s.lo, stripe, ExtentRole::kParityP));
      if (s.q >= 0) {
        parity.push_back(
            ParityExtent(s.q, s.row * unit_ + s.lo, s.hi - s.lo, stripe, ExtentRole::kParityQ));
      }
      if (!full) {
        plan.pre_reads.insert(plan.pre_reads.end(), s.data.begin(), s.data.end());
        plan.pre_reads.insert(plan.pre_reads.end(), parity.begin(), parity.end());
      }
      plan.writes.insert(plan.writes.end(), s.data.begin(), s.data.end());
      plan.writes.insert(plan.writes.end(), parity.begin(), parity.end());
    }
  }

 private:
  int64_t ComputeCapacity() const {
    const int64_t group_units_max = kUnbounded / unit_ / std::max(1, g_.members);
    if (member_units_ >= group_units_max) return kUnbounded / unit_ * unit_;
    const int64_t group_bytes = member_units_ * data_units_per_row_ * unit_;
    if (spans_ == 0) return group_bytes;
    return group_bytes / span_stripe_ * span_stripe_ * spans_;
  }

  MemberExtent DataExtent(int member, int64_t member_offset, int64_t len, const UnitLocation& loc,
                          int64_t logical) const {
    MemberExtent e{member, member_offset, len};
    e.role = ExtentRole::kData;
    e.stripe = loc.stripe;
    e.data_index = loc.data_index;
    e.logical_offset_bytes = logical;
    return e;
  }

  static MemberExtent ParityExtent(int member, int64_t offset, int64_t len, int64_t stripe,
                                   ExtentRole role) {
    MemberExtent e{member, offset, len};
    e.role = role;
    e.stripe = stripe;
    return e;
  }

  // Calls fn(logical offset, length, location) per piece inside one stripe unit.
  template <typename Fn>
  void ForEachPiece(int64_t offset, int64_t length, Fn fn) const {
    if (spans_ == 0) {
      ForEachAlignedPiece(offset, length, unit_, [&](int64_t pos, int64_t len) {
        UnitLocation loc = Locate(pos / unit_);
        loc.in_unit = pos % unit_;
        fn(pos, len, loc);
      });
      return;
    }
    ForEachAlignedPiece(offset, length, span_stripe_, [&](int64_t pos, int64_t len) {
      const int64_t chunk = pos / span_stripe_;
      const int span = static_cast<int>(chunk % spans_);
      const int64_t span_pos = (chunk / spans_) * span_stripe_ + pos % span_stripe_;
      ForEachAlignedPiece(span_pos, len, unit_, [&](int64_t in_span, int64_t piece) {
        UnitLocation loc = LocateInGroup(in_span / unit_, SpanLevel(g_.level), group_,
                                         span * group_, spans_, span);
        loc.in_unit = in_span % unit_;
        fn(pos + (in_span - span_pos), piece, loc);
      });
    });
  }

  // Unit c of a group of `n` members at `level` starting at member `base`; stripe ids
  // are row * stripe_mul + stripe_add.
  static UnitLocation LocateInGroup(int64_t c, RaidLevel level, int n, int base, int64_t stripe_mul,
                                    int64_t stripe_add) {
    UnitLocation loc;
    switch (level) {
      case RaidLevel::kRaid0:
        loc.row = c / n;
        loc.copies = {base + static_cast<int>(c % n), 1};
        break;
      case RaidLevel::kRaid1:
        loc.row = c;
        loc.copies = {base, n};
        break;
      case RaidLevel::kRaid10:
        loc.row = c / (n / 2);
        loc.copies = {base + 2 * static_cast<int>(c % (n / 2)), 2};
        break;
      default: {  // RAID 5 / 6.
        const int parities = level == RaidLevel::kRaid5 ? 1 : 2;
        const int data = n - parities;
        loc.row = c / data;
        loc.data_index = static_cast<int>(c % data);
        const int p = static_cast<int>((n - 1) - (loc.row % n));
        loc.parity_p = base + p;
        if (parities == 2) loc.parity_q = base + (p + 1) % n;
        loc.copies = {base + static_cast<int>((p + parities + loc.data_index) % n), 1};
        break;
      }
    }
    loc.stripe = loc.row * stripe_mul + stripe_add;
    return loc;
  }

  UnitLocation Locate(int64_t c) const {
    if (g_.level == RaidLevel::kJbod) {
      UnitLocation loc;
      loc.row = c % member_units_;
      loc.copies = {static_cast<int>(c / member_units_), 1};
      loc.stripe = c;
      return loc;
    }
    return LocateInGroup(c, g_.level, g_.members, 0, 1, 0);
  }

  ArrayGeometry g_;
  int64_t unit_ = 0;
  int64_t member_units_ = 0;
  int64_t data_units_per_row_ = 0;  // Per row of the array, or of one span.
  int spans_ = 0;                   // Spanned levels: spans; else 0.
  int group_ = 0;                   // Members per parity/mirror group (span or array).
  int64_t span_stripe_ = 0;
  int64_t period_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace

int64_t ArrayCapacityBytes(const ArrayGeometry& geometry) {
  return RaidLayoutImpl(geometry).capacity_bytes();
}

int64_t MemberBytesFor(const ArrayGeometry& geometry, int64_t logical_bytes) {
  ArrayGeometry g = geometry;
  const int64_t unit = g.stripe_unit_bytes;
  auto holds = [&](int64_t units) {
    g.member_size_bytes = units * unit;
    return RaidLayoutImpl(g).capacity_bytes() >= logical_bytes;
  };
  int64_t hi = 1;
  while (!holds(hi)) hi *= 2;
  int64_t lo = hi / 2;  // !holds(lo) unless lo == 0.
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (holds(mid) ? hi : lo) = mid;
  }
  return hi * unit;
}

StatusOr<std::unique_ptr<RaidLayout>> RaidLayout::Create(const ArrayGeometry& geometry) {
  Status s = CheckArrayGeometry(geometry, nullptr);
  if (!s.ok()) return s;
  return std::unique_ptr<RaidLayout>(new RaidLayoutImpl(geometry));
}

void MergeContiguousOnMembers(std::vector<MemberExtent>* extents) {
  size_t kept = 0;
  for (size_t i = 0; i < extents->size(); ++i) {
    const MemberExtent& e = (*extents)[i];
    bool joined = false;
    for (size_t j = 0; j < kept && !joined; ++j) {
      MemberExtent& k = (*extents)[j];
      if (ContinuesOnMember(k, e)) {
        k.length_bytes += e.length_bytes;
        joined = true;
      }
    }
    if (!joined) (*extents)[kept++] = e;
  }
  extents->resize(kept);
}

}  // namespace pgstorsim
