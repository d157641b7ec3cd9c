// The RAID levels' facts (members per level, data members and copies), their names
// and the checks of an array's geometry (see raid_layout.h).
#include "layout/raid_levels.h"

#include <cctype>
#include <string>

#include "layout/raid_layout.h"

namespace pgstorsim {
namespace raid_levels {

// The level inside each span of a spanned level.
RaidLevel SpanLevel(RaidLevel level) {
  switch (level) {
    case RaidLevel::kRaid50:
      return RaidLevel::kRaid5;
    case RaidLevel::kRaid60:
      return RaidLevel::kRaid6;
    case RaidLevel::kRaid100:
      return RaidLevel::kRaid10;
    default:
      return level;
  }
}

int Parities(RaidLevel level) {
  const RaidLevel l = SpanLevel(level);
  return l == RaidLevel::kRaid5 ? 1 : l == RaidLevel::kRaid6 ? 2 : 0;
}

// Data units per row of `n` members at a non-spanned level.
int DataUnitsPerRow(RaidLevel level, int n) {
  switch (level) {
    case RaidLevel::kRaid1:
      return 1;
    case RaidLevel::kRaid10:
      return n / 2;
    case RaidLevel::kRaid5:
      return n - 1;
    case RaidLevel::kRaid6:
      return n - 2;
    default:
      return n;
  }
}

}  // namespace raid_levels

using raid_levels::DataUnitsPerRow;
using raid_levels::Parities;
using raid_levels::SpanLevel;

namespace {

Status Problem(GeometryField* field, GeometryField which, const std::string& message) {
  if (field) *field = which;
  return Status::Error(message);
}

// The smallest span each spanned level allows, and whether it must be even.
Status CheckSpans(const ArrayGeometry& g, GeometryField* field) {
  const std::string name = RaidLevelName(g.level);
  const int min_span = g.level == RaidLevel::kRaid50 ? 3 : g.level == RaidLevel::kRaid60 ? 4 : 2;
  const std::string inner = RaidLevelName(SpanLevel(g.level));
  if (g.span_members < min_span || (g.level == RaidLevel::kRaid100 && g.span_members % 2 != 0)) {
    return Problem(field, GeometryField::kSpanMembers,
                   name + " needs spans of at least " + std::to_string(min_span) +
                       (g.level == RaidLevel::kRaid100 ? " members, an even count" : " members") +
                       " (got " + std::to_string(g.span_members) + ")");
  }
  if (g.members % g.span_members != 0 || g.members / g.span_members < 2) {
    return Problem(field, GeometryField::kMembers,
                   name + " needs its " + std::to_string(g.members) +
                       " members to form at least two equal spans of " +
                       std::to_string(g.span_members));
  }
  if (g.span_stripe_bytes < 0 || g.span_stripe_bytes % 512 != 0) {
    return Problem(
        field, GeometryField::kSpanStripe,
        "span stripe " + std::to_string(g.span_stripe_bytes) + " bytes is not a multiple of 512");
  }
  return Status::Ok();
}

Status CheckMembers(const ArrayGeometry& g, GeometryField* field) {
  const std::string count = std::to_string(g.members);
  auto too_few = [&](const std::string& rule) {
    return Problem(field, GeometryField::kMembers,
                   std::string(RaidLevelName(g.level)) + " needs " + rule + ", got " + count);
  };
  switch (g.level) {
    case RaidLevel::kJbod:
    case RaidLevel::kRaid0:
      return g.members < 1 ? too_few("at least 1 member") : Status::Ok();
    case RaidLevel::kRaid1:  // An n-way mirror (md allows any n >= 2).
      return g.members < 2 ? too_few("at least 2 members") : Status::Ok();
    case RaidLevel::kRaid10:
      return g.members < 4 || g.members % 2 != 0 ? too_few("an even member count >= 4")
                                                 : Status::Ok();
    case RaidLevel::kRaid5:
      return g.members < 3 ? too_few("at least 3 members") : Status::Ok();
    case RaidLevel::kRaid6:
      return g.members < 4 ? too_few("at least 4 members") : Status::Ok();
    case RaidLevel::kRaid50:
    case RaidLevel::kRaid60:
    case RaidLevel::kRaid100:
      return CheckSpans(g, field);
  }
  return Problem(field, GeometryField::kLevel, "unknown RAID level");
}

}  // namespace

Status CheckArrayGeometry(const ArrayGeometry& g, GeometryField* field) {
  if (g.stripe_unit_bytes <= 0 || g.stripe_unit_bytes % 512 != 0) {
    return Problem(field, GeometryField::kStripeUnit,
                   "stripe unit " + std::to_string(g.stripe_unit_bytes) +
                       " bytes is not a positive multiple of 512");
  }
  if (g.member_size_bytes < 0) {
    return Problem(field, GeometryField::kMemberSize, "member size is negative");
  }
  if (g.member_size_bytes > 0 && g.member_size_bytes < g.stripe_unit_bytes) {
    return Problem(field, GeometryField::kMemberSize,
                   "member size " + std::to_string(g.member_size_bytes) +
                       " bytes is smaller than one stripe unit");
  }
  if (g.level == RaidLevel::kJbod && g.member_size_bytes == 0) {
    return Problem(field, GeometryField::kMemberSize, "jbod needs a member size");
  }
  if (!IsSpannedLevel(g.level) && g.span_stripe_bytes != 0) {
    return Problem(
        field, GeometryField::kSpanStripe,
        std::string("a span stripe needs a spanned level (raid50, raid60, raid100), not ") +
            RaidLevelName(g.level));
  }
  return CheckMembers(g, field);
}

bool IsSpannedLevel(RaidLevel level) {
  return level == RaidLevel::kRaid50 || level == RaidLevel::kRaid60 || level == RaidLevel::kRaid100;
}

bool HasParity(RaidLevel level) { return Parities(level) > 0; }

int DataMembers(const ArrayGeometry& g) {
  if (g.level == RaidLevel::kJbod) return g.members;
  if (!IsSpannedLevel(g.level)) return DataUnitsPerRow(g.level, g.members);
  const int spans = g.span_members > 0 ? g.members / g.span_members : 1;
  return spans * DataUnitsPerRow(SpanLevel(g.level), g.span_members);
}

int DataCopies(const ArrayGeometry& g) {
  const RaidLevel l = SpanLevel(g.level);
  return l == RaidLevel::kRaid1 ? g.members : l == RaidLevel::kRaid10 ? 2 : 1;
}

int MemberWritesPerUnitWrite(const ArrayGeometry& g) { return DataCopies(g) + Parities(g.level); }

StatusOr<RaidLevel> ParseRaidLevel(const std::string& text) {
  std::string t;
  for (char ch : text) {
    if (ch == '-' || ch == '_' || ch == ' ') continue;
    t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  if (t.rfind("raid", 0) == 0) t = t.substr(4);
  static const std::pair<const char*, RaidLevel> kNames[] = {
      {"jbod", RaidLevel::kJbod},  {"concat", RaidLevel::kJbod}, {"0", RaidLevel::kRaid0},
      {"1", RaidLevel::kRaid1},    {"10", RaidLevel::kRaid10},   {"5", RaidLevel::kRaid5},
      {"6", RaidLevel::kRaid6},    {"50", RaidLevel::kRaid50},   {"60", RaidLevel::kRaid60},
      {"100", RaidLevel::kRaid100}};
  for (const auto& [name, level] : kNames) {
    if (t == name) return level;
  }
  return Status::Error(
      "unknown RAID level '" + text +
      "' (expected jbod, raid0, raid1, raid10, raid5, raid6, raid50, raid60, raid100)");
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
    case RaidLevel::kRaid100:
      return "raid100";
  }
  return "unknown";
}

}  // namespace pgstorsim
