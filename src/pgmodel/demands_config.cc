// What DemandSampler runs its cycles on and remembers (demands_config.h): the cycle's
// host, the thinned database, a scenario's host, T's buckets and the memo of results.
#include "pgmodel/demands_config.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "common/units.h"
#include "pgmodel/host_scenario.h"

namespace pgstorsim::pgmodel::demands_config {
namespace {

constexpr int64_t kThinnedMinBuffers = 128;

// The most pages a cycle touches (at most four new pages per transaction: the row's heap
// page, the page a non-HOT version goes to, the pkey leaf, the history page).
constexpr int64_t kCyclePages = 4 * kMaxCycle + 4096;

std::mutex& MemoMutex() {
  static std::mutex m;
  return m;
}

std::map<Memo::Key, HostDemands>& MemoMap() {
  static std::map<Memo::Key, HostDemands> m;
  return m;
}

}  // namespace

StatusOr<std::unique_ptr<Host>> CycleHost(HostConfig c) {
  c.start = CacheStart::kCold;
  c.cache.shared_buffers_pages = std::min(c.cache.shared_buffers_pages, kCyclePages);
  c.cache.os_cache_pages = 0;
  c.cache.readahead_max_pages = 0;
  c.cache.bgwriter_lru_maxpages = 0;
  c.cache.dense_page_index = false;  // A cycle touches few of the pages it could hold.
  c.wal_cache_region_bytes = 0;
  c.checkpoint_timeout_ns = INT64_MAX / 4;
  c.checkpoint_wal_bytes = INT64_MAX / 4;
  return Host::Create(c);
}

HostConfig Thinned(HostConfig c, double wanted_k, double* k) {
  const int64_t scale = std::max<int64_t>(1, std::llround(static_cast<double>(c.scale) / wanted_k));
  *k = static_cast<double>(c.scale) / static_cast<double>(scale);
  c.scale = scale;
  c.cache.shared_buffers_pages = std::max<int64_t>(
      kThinnedMinBuffers, std::llround(static_cast<double>(c.cache.shared_buffers_pages) / *k));
  c.checkpoint_wal_bytes = std::llround(static_cast<double>(c.checkpoint_wal_bytes) / *k);
  return c;
}

int64_t ThinnedCap(int64_t cap, double k) {
  if (cap >= kNoCap) return kNoCap;
  return std::max<int64_t>(1, std::llround(static_cast<double>(cap) / k));
}

int64_t Bucket(double run) {
  if (!(run >= 1)) return 0;
  return std::llround(std::pow(2.0, std::round(std::log2(run) * 8) / 8));
}

// A page evicted dirty waits in the OS page cache; dirtied again there it is written
// once: the cycle's buffers hold those pages too.
HostConfig ScenarioHostConfig(const Scenario& s, int64_t os_held_pages) {
  HostConfig c = HostConfigFromScenario(s);
  c.cache.shared_buffers_pages += os_held_pages == DemandSampler::kOsBackground
                                      ? OsDirtyLimitsOf(s).background_bytes / kPageBytes
                                      : Bucket(static_cast<double>(os_held_pages));
  return c;
}

Memo::Key Memo::KeyOf(const HostConfig& c, int64_t run, double thin_above, int64_t cap) {
  return {static_cast<int>(c.workload),
          c.scale,
          c.fillfactor,
          c.measured_relations.dump(),
          c.heap_churn,
          c.full_page_writes,
          c.checkpoint_wal_bytes,
          run,
          c.cache.shared_buffers_pages,  // A thinned database gets its share of all.
          thin_above,
          cap};
}

bool Memo::Find(const Key& key, HostDemands* out) {
  std::lock_guard<std::mutex> lock(MemoMutex());
  auto it = MemoMap().find(key);
  if (it == MemoMap().end()) return false;
  *out = it->second;
  return true;
}

void Memo::Store(const Key& key, const HostDemands& d) {
  std::lock_guard<std::mutex> lock(MemoMutex());
  MemoMap()[key] = d;
}

}  // namespace pgstorsim::pgmodel::demands_config
