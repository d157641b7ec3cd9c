// BufferCache: PostgreSQL's shared_buffers (clock sweep, usage count up to 5) in front
// of the operating system's page cache (one LRU list, or Linux's active and inactive
// lists: CacheConfig::os_active_ratio), both sized in 8 KiB pages
// (docs/workload-model.md, "Cache model").
//
// A Touch() of a page is a hit in shared buffers, a hit in the OS cache (the page is
// copied into a shared buffer) or a miss (a physical read; with OS readahead, a
// sequential miss reads a window of following pages too). Bringing a page into
// shared buffers evicts a victim; evicting a dirty buffer is a write (it goes to the
// OS cache, where it then lives, clean). Checkpoint() hands back every dirty buffer and
// marks it clean (the caller spreads the writes). With the background writer on
// (bgwriter_lru_maxpages > 0), BackgroundWriterRound() is PostgreSQL's BgBufferSync():
// it writes dirty buffers the clock hand will reach soon, so backends find clean
// victims (docs/workload-model.md, "Background writer"). Like Linux under PostgreSQL, the OS
// cache is inclusive: a page read into shared buffers passes through it (double
// buffering), so the combined capacity is about max(shared, os), not the sum.
//
// Pages are identified by (file, block). Deterministic: no randomness, no hash-order
// dependence. Thread safety: none; one cache per simulation.
#ifndef PGSTORSIM_CACHE_BUFFER_CACHE_H_
#define PGSTORSIM_CACHE_BUFFER_CACHE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

struct PageId {
  uint32_t file = 0;
  int64_t block = 0;
  bool operator==(const PageId& o) const { return file == o.file && block == o.block; }
  bool operator!=(const PageId& o) const { return !(*this == o); }
  bool operator<(const PageId& o) const { return file != o.file ? file < o.file : block < o.block; }
};

// `pages` consecutive blocks of one file from `first_block`.
struct PageSpan {
  uint32_t file = 0;
  int64_t first_block = 0;
  int64_t pages = 0;
};

enum class CacheOutcome { kSharedHit = 0, kOsHit = 1, kMiss = 2 };
const char* CacheOutcomeName(CacheOutcome outcome);  // "shared_hit", "os_hit", "miss"

// One physical I/O caused by the cache: `pages` consecutive blocks from `first`.
struct CacheIo {
  enum Kind { kRead, kWrite } kind = kRead;
  PageId first;
  int64_t pages = 1;
};

struct CacheConfig {
  int64_t shared_buffers_pages = 16384;  // 128 MiB, PostgreSQL's default.
  int64_t os_cache_pages = 0;            // 0 = no OS cache (direct I/O).
  int max_usage_count = 5;               // BM_MAX_USAGE_COUNT.
  // OS readahead: after two consecutive-block misses of one file, a miss reads
  // min(window, max) pages; the window starts at 4 pages and doubles per sequential
  // miss. 0 disables readahead.
  int64_t readahead_max_pages = 0;
  // The background writer's LRU cleaning: bgwriter_lru_maxpages (writes per round at
  // most; 0 = off, the default here; PostgreSQL's default is 100),
  // bgwriter_lru_multiplier (the round cleans ahead for the recent allocations per
  // round x this) and bgwriter_delay (ms between rounds: the caller calls
  // BackgroundWriterRound() this often; it also sets how fast an idle round scans).
  int64_t bgwriter_lru_maxpages = 0;
  double bgwriter_lru_multiplier = 2.0;
  int64_t bgwriter_delay_ms = 200;
  // The OS cache's lists: 0 = one LRU list; r > 0 = Linux's active and inactive lists
  // with active <= r x inactive under pressure (LinuxActiveRatio below; the class
  // comment of LruImpl in policies.h).
  int os_active_ratio = 0;
  // The page index: an array entry per block up to a per-file limit (twice the pages
  // the caches hold, 1 Mi blocks at least), a hash map beyond; false: a hash map for
  // every page, whose memory follows the pages cached only (for a short-lived cache
  // that touches few pages of large relations). Results do not depend on it.
  bool dense_page_index = true;
};

// Linux's inactive_ratio for a page cache of `os_cache_pages` 8 KiB pages
// (mm/vmscan.c inactive_is_low(): int_sqrt(10 x size in GiB), 1 below 1 GiB).
int LinuxActiveRatio(int64_t os_cache_pages);

// CacheConfig::os_active_ratio for a page cache of `os_cache_pages`: Linux's ratio on a
// Linux filesystem (scenario UsesLinuxPageCache: ext4, xfs, ...), 0 (one LRU list)
// otherwise (UFS2: FreeBSD, whose page queues differ).
int OsActiveRatio(int64_t os_cache_pages, bool linux_page_cache);

// Pages of a warm cache (shared buffers + OS cache, `cache_pages` in all) that keep
// re-read data when the database (`database_pages`) does not fit it: with two OS
// lists, under pressure the OS keeps re-read pages only on the active list, at most
// ratio / (1 + ratio) of the OS cache (the inactive list turns over with pages read
// or written once); shared buffers count whole. All of `cache_pages` when the
// database fits or with one list.
int64_t ReusableCachePages(int64_t cache_pages, int64_t shared_buffers_pages,
                           int64_t database_pages, int active_ratio);

struct CacheStats {
  uint64_t shared_hits = 0;
  uint64_t os_hits = 0;
  uint64_t misses = 0;
  // Writes of dirty buffers, by writer, as pg_stat_bgwriter counts them: a backend
  // evicting a dirty victim (buffers_backend), Checkpoint() (buffers_checkpoint), the
  // background writer (buffers_clean; maxwritten_clean = rounds stopped by maxpages).
  uint64_t dirty_evictions = 0;  // buffers_backend.
  uint64_t buffers_checkpoint = 0;
  uint64_t buffers_clean = 0;
  uint64_t maxwritten_clean = 0;
  uint64_t buffers_alloc = 0;    // Shared-buffer misses (a buffer taken for a new page).
  uint64_t buffers_dirtied = 0;  // Clean -> dirty transitions (shared_blks_dirtied).
  uint64_t readahead_pages = 0;  // Pages read ahead beyond the missed page.
  uint64_t extends = 0;          // Pages added by Extend().
  uint64_t touches() const { return shared_hits + os_hits + misses; }
};

class BufferCache {
 public:
  virtual ~BufferCache() = default;
  // Validates the config (shared_buffers_pages >= 16, os_cache_pages >= 0, usage
  // count 1..5, readahead >= 0); errors name the field.
  static StatusOr<std::unique_ptr<BufferCache>> Create(const CacheConfig& config);

  // Accesses `page`; `dirty` marks the buffer dirty. Physical I/O (the read of a miss,
  // the write of a dirty victim) is appended to *ios (not cleared), in issue order.
  virtual CacheOutcome Touch(const PageId& page, bool dirty, std::vector<CacheIo>* ios) = 0;

  // The relation grows by `page` (PostgreSQL extends it with a zero-filled page):
  // the page enters shared buffers without a read (a dirty victim is still written).
  // Counted in stats().extends, not as a touch. `dirty` as for Touch().
  virtual void Extend(const PageId& page, bool dirty, std::vector<CacheIo>* ios) = 0;

  // Pre-fills clean pages in the given order (hottest first): shared buffers with the
  // first shared_buffers_pages, the OS cache with the first os_cache_pages (inclusive,
  // the hottest most recent). Usage counts start at 1. Use on an empty cache ("warm").
  // With two OS lists, the OS copies of pages in shared buffers are on the inactive
  // list (read once into shared buffers, not touched in the OS since), the others on
  // the active list (read before, then again: `pgstorsim run --cache warm` reads the
  // files, then pg_prewarm); the lists are balanced at the first eviction.
  virtual void Prewarm(const std::vector<PageId>& hottest_first) = 0;
  // The same for the pages of `hottest_first` in order, without a vector of every
  // page (a warm cache over a large database holds millions). The spans may go on
  // past the caches' capacity (e.g. list the whole database): the cache then sizes
  // its page index for all of them at once.
  virtual void Prewarm(const std::vector<PageSpan>& hottest_first) = 0;

  // A page written with write() outside shared buffers (a WAL page): it enters the
  // OS cache like an accessed page. No I/O here (the caller writes it), not a touch.
  virtual void WriteOsPage(const PageId& page) = 0;

  // Returns every dirty buffer in (file, block) order and marks them clean (the
  // checkpointer writes them; the pages stay cached).
  virtual std::vector<PageId> Checkpoint() = 0;
  // Checkpoint() for a caller that needs only how many: marks every dirty buffer clean
  // and returns their number (no list to build and sort).
  virtual int64_t CheckpointCount() = 0;

  // One round of the background writer (call every bgwriter_delay_ms of simulated
  // time): writes up to bgwriter_lru_maxpages dirty buffers with usage count 0 ahead of
  // the clock hand, as many as the allocations expected before the next round need
  // (PostgreSQL's estimate: recent allocations x multiplier, at least a slice of the
  // pool so an idle pool is cleaned in 120 s). Each write is appended to *ios (one
  // page each, in clock order); the buffers stay cached, clean, and the pages enter
  // the OS cache. Does nothing when bgwriter_lru_maxpages is 0.
  virtual void BackgroundWriterRound(std::vector<CacheIo>* ios) = 0;

  // A hint for a caller that knows which page comes next: starts loading the page's
  // index entry. Results do not depend on it.
  virtual void Prefetch(const PageId& page) const = 0;

  virtual bool InSharedBuffers(const PageId& page) const = 0;
  virtual bool InOsCache(const PageId& page) const = 0;
  virtual int64_t dirty_pages() const = 0;
  virtual const CacheStats& stats() const = 0;
  virtual void ResetStats() = 0;
  virtual const CacheConfig& config() const = 0;
};

// The building blocks, exposed for tests and for other models.
//
// ClockSweep: PostgreSQL's buffer replacement. A hit raises the buffer's usage count
// (up to max); a miss takes a free buffer or sweeps the clock hand, decrementing usage
// counts, until it finds one at 0.
class ClockSweep {
 public:
  virtual ~ClockSweep() = default;
  static std::unique_ptr<ClockSweep> Create(int64_t buffers, int max_usage_count);
  // True on a hit. On a miss the page is loaded; if a resident page was evicted,
  // *evicted is set and *evicted_dirty tells whether it was dirty.
  virtual bool Access(const PageId& page, bool dirty, bool* evicted_valid, PageId* evicted,
                      bool* evicted_dirty) = 0;
  virtual bool Contains(const PageId& page) const = 0;
  virtual int UsageCount(const PageId& page) const = 0;  // -1 if absent.
  virtual int64_t size() const = 0;                      // Resident pages.
  virtual std::vector<PageId> TakeDirty() = 0;           // Sorted; marks clean.
  virtual int64_t CleanAll() = 0;  // TakeDirty without the list: returns the count.
  virtual int64_t dirty_pages() const = 0;

  // For the background writer. SyncStart() is PostgreSQL's StrategySyncStart(): the
  // frame the clock hand will look at next, the hand's complete passes over the pool,
  // and the frames allocated since the previous call (the count is then reset).
  struct SyncPoint {
    int64_t frame = 0;
    uint64_t passes = 0;
    uint64_t recent_allocs = 0;
  };
  virtual SyncPoint SyncStart() = 0;
  // SyncOneBuffer(skip_recently_used): a frame with usage count 0 is reusable
  // (kReusable); if it also holds a dirty page, the page is marked clean, stored in
  // *written and kWritten is set too. REQUIRES: 0 <= frame < frames().
  static constexpr int kReusable = 1;
  static constexpr int kWritten = 2;
  virtual int CleanIfReusable(int64_t frame, PageId* written) = 0;
  virtual int64_t frames() const = 0;  // The pool's size in buffers.
};

// Lru: the OS page cache. Access returns true on a hit and makes the page most
// recent; on a miss it inserts the page, evicting the least recent when full.
class Lru {
 public:
  virtual ~Lru() = default;
  static std::unique_ptr<Lru> Create(int64_t capacity_pages);
  virtual bool Access(const PageId& page) = 0;
  // Inserts/refreshes without counting as an access (readahead, written pages).
  virtual void Insert(const PageId& page) = 0;
  virtual bool Contains(const PageId& page) const = 0;
  virtual int64_t size() const = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_BUFFER_CACHE_H_
