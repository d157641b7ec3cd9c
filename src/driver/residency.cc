#include "driver/residency.h"

#include <algorithm>
#include <cstdio>

#include "workload/database_layout.h"

namespace pgstorsim {
namespace {

bool IsAccounts(const std::string& name) {
  return name == RelationName(Relation::kAccounts) || name == RelationName(Relation::kAccountsPkey);
}

// Sums resident / total over the relations `pick` selects; -1 when any is unknown.
template <typename Pick>
double Fraction(const std::vector<RelationResidency>& rels, bool accounts_only, Pick pick) {
  int64_t resident = 0, total = 0;
  for (const RelationResidency& r : rels) {
    if (accounts_only && !IsAccounts(r.name)) continue;
    auto [part, whole] = pick(r);
    if (part < 0 || whole < 0) return -1;
    resident += part;
    total += whole;
  }
  return ResidentFraction(resident, total);
}

std::pair<int64_t, int64_t> Os(const RelationResidency& r) {
  return {r.os_resident_blocks, r.os_file_blocks};
}
std::pair<int64_t, int64_t> Shared(const RelationResidency& r) {
  return {r.shared_buffers, r.blocks};
}

std::string Percent(double fraction) {
  if (fraction < 0) return "an unknown share";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * fraction);
  return buf;
}

nlohmann::json Count(int64_t v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); }

}  // namespace

std::string RatioText(double ratio) {
  if (ratio < 0) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ratio);
  return buf;
}

nlohmann::json KnownOrNull(double value) {
  return value < 0 ? nlohmann::json(nullptr) : nlohmann::json(value);
}

std::string SegmentPath(const std::string& base, int segment) {
  return segment == 0 ? base : base + "." + std::to_string(segment);
}

int64_t FileBlocks(int64_t file_bytes, int64_t block_bytes) {
  return (file_bytes + block_bytes - 1) / block_bytes;
}

int64_t ResidentBlocks(const std::vector<unsigned char>& page_resident, int64_t file_bytes,
                       int64_t os_page_bytes, int64_t block_bytes) {
  int64_t resident = 0;
  const int64_t blocks = FileBlocks(file_bytes, block_bytes);
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t first_page = b * block_bytes / os_page_bytes;
    const int64_t end_byte = std::min(file_bytes, (b + 1) * block_bytes);
    const int64_t last_page = (end_byte - 1) / os_page_bytes;
    bool all = last_page < static_cast<int64_t>(page_resident.size());
    for (int64_t p = first_page; all && p <= last_page; ++p) all = (page_resident[p] & 1) != 0;
    if (all) ++resident;
  }
  return resident;
}

double ResidentFraction(int64_t resident, int64_t total) {
  if (resident < 0 || total <= 0) return -1;
  return static_cast<double>(resident) / static_cast<double>(total);
}

void AddSegment(RelationResidency* r, int64_t file_blocks, int64_t resident_blocks) {
  r->os_file_blocks += file_blocks;
  if (resident_blocks < 0 || r->os_resident_blocks < 0) {
    r->os_resident_blocks = -1;
  } else {
    r->os_resident_blocks += resident_blocks;
  }
}

double Residency::AccountsOsFraction() const { return Fraction(relations, true, Os); }
double Residency::AccountsSharedFraction() const { return Fraction(relations, true, Shared); }
double Residency::TotalOsFraction() const { return Fraction(relations, false, Os); }
double Residency::TotalSharedFraction() const { return Fraction(relations, false, Shared); }

std::string Residency::Describe() const {
  const double shared = AccountsSharedFraction(), os = AccountsOsFraction();
  std::string s = "pgbench_accounts (heap + primary key) " + taken + ": shared_buffers held " +
                  Percent(shared) + " of its blocks, the OS page cache " + Percent(os) +
                  " of its files (first-touch hit ratios " + RatioText(shared) + " and " +
                  RatioText(os) + ")";
  if (shared < 0) s += "; shared_buffers unknown: " + shared_note;
  if (os < 0) s += "; OS page cache unknown: " + os_note;
  return s;
}

nlohmann::json Residency::ToJson() const {
  nlohmann::json rels = nlohmann::json::object();
  for (const RelationResidency& r : relations) {
    rels[r.name] = {
        {"blocks", Count(r.blocks)},
        {"shared_buffers_blocks", Count(r.shared_buffers)},
        {"shared_resident_fraction", KnownOrNull(ResidentFraction(r.shared_buffers, r.blocks))},
        {"os_file_blocks", Count(r.os_file_blocks)},
        {"os_resident_blocks", Count(r.os_resident_blocks)},
        {"os_resident_fraction",
         KnownOrNull(ResidentFraction(r.os_resident_blocks, r.os_file_blocks))}};
  }
  return {{"residency_taken", taken},
          {"accounts_os_resident_fraction", KnownOrNull(AccountsOsFraction())},
          {"accounts_shared_resident_fraction", KnownOrNull(AccountsSharedFraction())},
          {"os_resident_fraction", KnownOrNull(TotalOsFraction())},
          {"shared_resident_fraction", KnownOrNull(TotalSharedFraction())},
          {"os_residency_note", os_note},
          {"shared_residency_note", shared_note},
          {"relations_residency", rels}};
}

}  // namespace pgstorsim
