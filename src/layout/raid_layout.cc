#include "layout/raid_layout.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include "common/units.h"

namespace pgstorsim {
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
  int64_t row = 0;     // Unit-sized row on the member(s): member offset = row * unit.
  int64_t stripe = 0;  // Array-wide stripe id (parity group).
  CopyRange copies;
  int parity_p = -1;  // Member holding P for this stripe, or -1.
  int parity_q = -1;  // Member holding Q, or -1.
  int data_index = 0;
};

class RaidLayoutImpl : public RaidLayout {
 public:
  explicit RaidLayoutImpl(const ArrayGeometry& g) : g_(g) {
    unit_ = g.stripe_unit_bytes;
    member_units_ = g.member_size_bytes > 0 ? g.member_size_bytes / unit_ : kUnbounded / unit_;
    const int n = g.members;
    switch (g.level) {
      case RaidLevel::kJbod:
        data_units_per_row_ = n;
        break;
      case RaidLevel::kRaid0:
        data_units_per_row_ = n;
        break;
      case RaidLevel::kRaid1:
        data_units_per_row_ = 1;
        break;
      case RaidLevel::kRaid10:
        data_units_per_row_ = n / 2;
        break;
      case RaidLevel::kRaid5:
        data_units_per_row_ = n - 1;
        break;
      case RaidLevel::kRaid6:
        data_units_per_row_ = n - 2;
        break;
      case RaidLevel::kRaid50:
        data_units_per_row_ = n - n / g.span_members;
        break;
      case RaidLevel::kRaid60:
        data_units_per_row_ = n - 2 * (n / g.span_members);
        break;
    }
    const int64_t units = member_units_ >= kUnbounded / unit_ / n
                              ? kUnbounded / unit_
                              : member_units_ * data_units_per_row_;
    capacity_ = units * unit_;
  }

  const ArrayGeometry& geometry() const override { return g_; }
  int64_t capacity_bytes() const override { return capacity_; }

  void MapReadInto(int64_t offset, int64_t length, std::vector<ReadPiece>* pieces) const override {
    size_t n = 0;
    ForEachPiece(offset, length, [&](int64_t logical, int64_t len, const UnitLocation& loc) {
      if (n == pieces->size()) pieces->emplace_back();
      ReadPiece& piece = (*pieces)[n++];
      piece.logical_offset_bytes = logical;
      piece.length_bytes = len;
      piece.copies.clear();
      const int64_t member_offset = loc.row * unit_ + logical % unit_;
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
      const int64_t in_unit = logical % unit_;
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
      const bool full = s.covered == data_units_per_stripe() * unit_;
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
  int64_t data_units_per_stripe() const {
    switch (g_.level) {
      case RaidLevel::kRaid5:
        return g_.members - 1;
      case RaidLevel::kRaid6:
        return g_.members - 2;
      case RaidLevel::kRaid50:
        return g_.span_members - 1;
      case RaidLevel::kRaid60:
        return g_.span_members - 2;
      default:
        return 1;
    }
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

  template <typename Fn>
  void ForEachPiece(int64_t offset, int64_t length, Fn fn) const {
    ForEachAlignedPiece(offset, length, unit_,
                        [&](int64_t pos, int64_t len) { fn(pos, len, Locate(pos / unit_)); });
  }

  // Parity layout of one RAID 5/6 group of `n` members starting at member `base`.
  UnitLocation LocateParity(int64_t c, int n, int base, int parities, int64_t stripe_mul,
                            int64_t stripe_add) const {
    UnitLocation loc;
    const int data = n - parities;
    loc.row = c / data;
    loc.stripe = loc.row * stripe_mul + stripe_add;
    loc.data_index = static_cast<int>(c % data);
    const int p = static_cast<int>((n - 1) - (loc.row % n));
    loc.parity_p = base + p;
    if (parities == 2) loc.parity_q = base + (p + 1) % n;
    loc.copies = {base + static_cast<int>((p + parities + loc.data_index) % n), 1};
    return loc;
  }

  UnitLocation Locate(int64_t c) const {
    const int n = g_.members;
    UnitLocation loc;
    switch (g_.level) {
      case RaidLevel::kJbod:
        loc.row = c % member_units_;
        loc.copies = {static_cast<int>(c / member_units_), 1};
        loc.stripe = c;
        return loc;
      case RaidLevel::kRaid0:
        loc.row = c / n;
        loc.copies = {static_cast<int>(c % n), 1};
        loc.stripe = loc.row;
        return loc;
      case RaidLevel::kRaid1:
        loc.row = c;
        loc.stripe = c;
        loc.copies = {0, n};
        return loc;
      case RaidLevel::kRaid10: {
        const int pair = static_cast<int>(c % (n / 2));
        loc.row = c / (n / 2);
        loc.stripe = loc.row;
        loc.copies = {2 * pair, 2};
        return loc;
      }
      case RaidLevel::kRaid5:
        return LocateParity(c, n, 0, 1, 1, 0);
      case RaidLevel::kRaid6:
        return LocateParity(c, n, 0, 2, 1, 0);
      case RaidLevel::kRaid50:
      case RaidLevel::kRaid60: {
        const int spans = n / g_.span_members;
        const int span = static_cast<int>(c % spans);
        const int parities = g_.level == RaidLevel::kRaid50 ? 1 : 2;
        return LocateParity(c / spans, g_.span_members, span * g_.span_members, parities, spans,
                            span);
      }
    }
    return loc;
  }

  ArrayGeometry g_;
  int64_t unit_ = 0;
  int64_t member_units_ = 0;
  int64_t data_units_per_row_ = 0;
  int64_t capacity_ = 0;
};

Status ValidateSpans(const ArrayGeometry& g, int min_span) {
  const std::string name = RaidLevelName(g.level);
  if (g.span_members < min_span) {
    return Status::Error(name + " needs span_members >= " + std::to_string(min_span) + " (got " +
                         std::to_string(g.span_members) + ")");
  }
  if (g.members % g.span_members != 0 || g.members / g.span_members < 2) {
    return Status::Error(name + " needs members (" + std::to_string(g.members) +
                         ") to be at least two spans of " + std::to_string(g.span_members));
  }
  return Status::Ok();
}

Status Validate(const ArrayGeometry& g) {
  const std::string name = RaidLevelName(g.level);
  const std::string count = std::to_string(g.members);
  if (g.stripe_unit_bytes <= 0 || g.stripe_unit_bytes % 512 != 0) {
    return Status::Error("stripe unit " + std::to_string(g.stripe_unit_bytes) +
                         " bytes is not a positive multiple of 512");
  }
  if (g.member_size_bytes < 0) return Status::Error("member size is negative");
  if (g.member_size_bytes > 0 && g.member_size_bytes < g.stripe_unit_bytes) {
    return Status::Error("member size " + std::to_string(g.member_size_bytes) +
                         " bytes is smaller than one stripe unit");
  }
  switch (g.level) {
    case RaidLevel::kJbod:
      if (g.members < 1) return Status::Error("jbod needs at least 1 member");
      if (g.member_size_bytes == 0) return Status::Error("jbod needs a member size");
      return Status::Ok();
    case RaidLevel::kRaid0:
      if (g.members < 1) return Status::Error("raid0 needs at least 1 member");
      return Status::Ok();
    case RaidLevel::kRaid1:
      if (g.members < 2) return Status::Error("raid1 needs at least 2 members, got " + count);
      return Status::Ok();
    case RaidLevel::kRaid10:
      if (g.members < 4 || g.members % 2 != 0) {
        return Status::Error("raid10 needs an even member count >= 4, got " + count);
      }
      return Status::Ok();
    case RaidLevel::kRaid5:
      if (g.members < 3) return Status::Error("raid5 needs at least 3 members, got " + count);
      return Status::Ok();
    case RaidLevel::kRaid6:
      if (g.members < 4) return Status::Error("raid6 needs at least 4 members, got " + count);
      return Status::Ok();
    case RaidLevel::kRaid50:
      return ValidateSpans(g, 3);
    case RaidLevel::kRaid60:
      return ValidateSpans(g, 4);
  }
  return Status::Error("unknown RAID level");
}

}  // namespace

StatusOr<RaidLevel> ParseRaidLevel(const std::string& text) {
  std::string t;
  for (char ch : text) {
    if (ch == '-' || ch == '_' || ch == ' ') continue;
    t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  if (t.rfind("raid", 0) == 0) t = t.substr(4);
  static const std::pair<const char*, RaidLevel> kNames[] = {
      {"jbod", RaidLevel::kJbod}, {"concat", RaidLevel::kJbod}, {"0", RaidLevel::kRaid0},
      {"1", RaidLevel::kRaid1},   {"10", RaidLevel::kRaid10},   {"5", RaidLevel::kRaid5},
      {"6", RaidLevel::kRaid6},   {"50", RaidLevel::kRaid50},   {"60", RaidLevel::kRaid60}};
  for (const auto& [name, level] : kNames) {
    if (t == name) return level;
  }
  return Status::Error("unknown RAID level '" + text +
                       "' (expected jbod, raid0, raid1, raid10, raid5, raid6, raid50, raid60)");
}

const char* RaidLevelName(RaidLevel level) {
  switch (level) {
    case RaidLevel::kJbod:
      return "jbod";
    case RaidLevel::kRaid0:
      return "raid0";
    case RaidLevel::kRaid1:
      return "raid1";
    case RaidLevel::kRaid10:
      return "raid10";
    case RaidLevel::kRaid5:
      return "raid5";
    case RaidLevel::kRaid6:
      return "raid6";
    case RaidLevel::kRaid50:
      return "raid50";
    case RaidLevel::kRaid60:
      return "raid60";
  }
  return "unknown";
}

StatusOr<std::unique_ptr<RaidLayout>> RaidLayout::Create(const ArrayGeometry& geometry) {
  Status s = Validate(geometry);
  if (!s.ok()) return s;
  return std::unique_ptr<RaidLayout>(new RaidLayoutImpl(geometry));
}

}  // namespace pgstorsim
