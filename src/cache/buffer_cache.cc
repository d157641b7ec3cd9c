// BufferCache: shared buffers (ClockSweep) in front of the OS page cache (Lru), with
// OS readahead on sequential misses.
#include "cache/buffer_cache.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "cache/lru_cleaner.h"
#include "cache/policies.h"

namespace pgstorsim {
namespace {

constexpr int64_t kInitialReadaheadPages = 4;
constexpr int64_t kDenseBlocksPerCachedPage = 2;
constexpr int64_t kMinDenseBlocks = int64_t{1} << 20;  // 8 GiB of 8 KiB pages.

class BufferCacheImpl : public BufferCache {
 public:
  explicit BufferCacheImpl(const CacheConfig& config)
      : config_(config),
        shared_(config.shared_buffers_pages, config.max_usage_count, &table_),
        os_(config.os_cache_pages, &table_, config.os_active_ratio),
        cleaner_(config.bgwriter_lru_maxpages, config.bgwriter_lru_multiplier,
                 config.bgwriter_delay_ms) {
    // Dense entries up to kDenseBlocksPerCachedPage x the pages both caches hold, per
    // file; beyond, a hash map: the table grows with the caches, not the database.
    // Without dense_page_index, every entry is in the hash map.
    const int64_t cached = config.shared_buffers_pages + config.os_cache_pages;
    table_.SetDenseLimit(config.dense_page_index
                             ? std::max(kMinDenseBlocks, kDenseBlocksPerCachedPage * cached)
                             : 0);
  }

  CacheOutcome Touch(const PageId& page, bool dirty, std::vector<CacheIo>* ios) override {
    if (SharedAccess(page, dirty, ios)) {
      ++stats_.shared_hits;
      return CacheOutcome::kSharedHit;
    }
    if (os_.Access(page)) {
      ++stats_.os_hits;
      return CacheOutcome::kOsHit;
    }
    ++stats_.misses;
    const int64_t pages = ReadaheadPages(page);
    for (int64_t i = 1; i < pages; ++i) os_.Insert({page.file, page.block + i});
    stats_.readahead_pages += static_cast<uint64_t>(pages - 1);
    ios->push_back({CacheIo::kRead, page, pages});
    return CacheOutcome::kMiss;
  }

  void Extend(const PageId& page, bool dirty, std::vector<CacheIo>* ios) override {
    ++stats_.extends;
    SharedAccess(page, dirty, ios);
  }

  void Prewarm(const std::vector<PageId>& hottest_first) override {
    std::vector<PageSpan> spans;
    for (const PageId& p : hottest_first) {
      if (!spans.empty() && spans.back().file == p.file &&
          spans.back().first_block + spans.back().pages == p.block) {
        ++spans.back().pages;
      } else {
        spans.push_back({p.file, p.block, 1});
      }
    }
    Prewarm(spans);
  }

  void Prewarm(const std::vector<PageSpan>& hottest_first) override {
    int64_t total = 0;
    for (const PageSpan& span : hottest_first) total += std::max<int64_t>(span.pages, 0);
    const int64_t shared = std::min(total, config_.shared_buffers_pages);
    const int64_t os_end = std::min(total, config_.os_cache_pages);
    PresizeTable(hottest_first, std::max(shared, os_end));
    // The OS pages outside shared buffers go to the active list, the others to the
    // inactive one (with one list, all to it).
    os_.Reserve(os_end, std::min(shared, os_end));
    bool evicted_valid = false, evicted_dirty = false;
    PageId evicted;
    ForEachPage(hottest_first, shared, /*reverse=*/false, [&](const PageId& page) {
      shared_.Access(page, false, &evicted_valid, &evicted, &evicted_dirty);
    });
    // The OS cache holds the hottest pages too (double buffering: every page in shared
    // buffers was read through it); coldest first, so the hottest ends most recent.
    ForEachPage(hottest_first, os_end, /*reverse=*/true,
                [&](const PageId& page) { os_.Place(page, !shared_.Contains(page)); });
  }

  void WriteOsPage(const PageId& page) override { os_.Insert(page); }

  std::vector<PageId> Checkpoint() override {
    std::vector<PageId> dirty = shared_.TakeDirty();
    stats_.buffers_checkpoint += dirty.size();
    return dirty;
  }

  int64_t CheckpointCount() override {
    const int64_t dirty = shared_.CleanAll();
    stats_.buffers_checkpoint += static_cast<uint64_t>(dirty);
    return dirty;
  }

  void BackgroundWriterRound(std::vector<CacheIo>* ios) override {
    cleaned_.clear();
    const LruCleaner::Round round = cleaner_.Run(&shared_, &cleaned_);
    stats_.buffers_clean += cleaned_.size();
    stats_.maxwritten_clean += round.hit_maxpages ? 1 : 0;
    for (const PageId& page : cleaned_) {
      ios->push_back({CacheIo::kWrite, page, 1});
      os_.Insert(page);
    }
  }

  void Prefetch(const PageId& page) const override { table_.Prefetch(page); }

  bool InSharedBuffers(const PageId& page) const override { return shared_.Contains(page); }
  bool InOsCache(const PageId& page) const override { return os_.Contains(page); }
  int64_t dirty_pages() const override { return shared_.dirty_pages(); }
  const CacheStats& stats() const override { return stats_; }
  void ResetStats() override { stats_ = CacheStats(); }
  const CacheConfig& config() const override { return config_; }

 private:
  // The shared-buffer access of Touch() and Extend(): true on a hit; on a miss the
  // victim, if dirty, is written by the backend. Counts allocations and dirtied buffers.
  bool SharedAccess(const PageId& page, bool dirty, std::vector<CacheIo>* ios) {
    bool evicted_valid = false, evicted_dirty = false;
    PageId evicted;
    const int64_t dirty_before = shared_.dirty_pages();
    const bool hit = shared_.Access(page, dirty, &evicted_valid, &evicted, &evicted_dirty);
    const bool wrote = evicted_valid && evicted_dirty;
    stats_.buffers_dirtied += static_cast<uint64_t>(shared_.dirty_pages() - dirty_before + wrote);
    if (hit) return true;
    ++stats_.buffers_alloc;
    if (wrote) {
      ios->push_back({CacheIo::kWrite, evicted, 1});
      os_.Insert(evicted);
      ++stats_.dirty_evictions;
    }
    return false;
  }

  // Calls fn(page) for the first `n` pages of `spans`, in order or in reverse.
  template <typename Fn>
  static void ForEachPage(const std::vector<PageSpan>& spans, int64_t n, bool reverse, Fn fn) {
    if (!reverse) {
      for (size_t i = 0; i < spans.size() && n > 0; ++i) {
        for (int64_t b = 0; b < spans[i].pages && n > 0; ++b, --n) {
          fn(PageId{spans[i].file, spans[i].first_block + b});
        }
      }
      return;
    }
    size_t end = 0;  // Spans [0, end) hold the first n pages; the last one `last` of them.
    int64_t last = 0;
    for (int64_t left = n; end < spans.size() && left > 0; ++end) {
      last = std::min(std::max<int64_t>(spans[end].pages, 0), left);
      left -= last;
    }
    for (size_t i = end; i-- > 0;) {
      const PageSpan& span = spans[i];
      for (int64_t b = (i + 1 == end ? last : span.pages); b-- > 0;) {
        fn(PageId{span.file, span.first_block + b});
      }
    }
  }

  // Sizes the page table at once for the first `n` pages of `spans`, the pages
  // prewarmed, instead of growing it by doubling (and copying) as they come. A file
  // whose spans reach beyond the dense limit (much larger than the caches) keeps dense
  // entries only up to the highest block below which at least 1 in 8 blocks is
  // prewarmed (a dense entry is 8 bytes, a hash map entry 50-100); its other pages, the
  // prewarmed ones beyond and those touched later, go to the hash map, so memory
  // follows the cached pages, not the file.
  void PresizeTable(const std::vector<PageSpan>& spans, int64_t n) {
    struct FileSpans {
      int64_t extent = 0;                               // Highest block + 1 over all spans.
      std::vector<std::pair<int64_t, int64_t>> placed;  // (first block, pages).
    };
    std::vector<FileSpans> files;
    for (const PageSpan& span : spans) {
      if (span.pages <= 0 || span.file >= CacheTable::kMaxDenseFiles) {
        n -= std::max<int64_t>(span.pages, 0);
        continue;
      }
      if (span.file >= files.size()) files.resize(span.file + 1);
      FileSpans& f = files[span.file];
      f.extent = std::max(f.extent, span.first_block + span.pages);
      const int64_t pages = std::min(span.pages, std::max<int64_t>(n, 0));
      n -= span.pages;
      if (pages > 0) f.placed.emplace_back(span.first_block, pages);
    }
    for (size_t file = 0; file < files.size(); ++file) {
      FileSpans& f = files[file];
      std::sort(f.placed.begin(), f.placed.end());
      const int64_t high = f.placed.empty() ? 0 : f.placed.back().first + f.placed.back().second;
      if (f.extent <= table_.dense_limit()) {
        table_.Presize(static_cast<uint32_t>(file), high);
        continue;
      }
      int64_t dense_end = 0, below = 0, total = 0;
      for (const auto& [first, pages] : f.placed) {
        below += pages;
        if (below * 8 >= first + pages) dense_end = first + pages;
      }
      for (const auto& [first, pages] : f.placed) {
        total += std::max<int64_t>(0, first + pages - std::max(first, dense_end));
      }
      table_.Presize(static_cast<uint32_t>(file), dense_end, /*cap=*/true);
      table_.ReserveSparse(total);
    }
  }

  struct Sequence {
    int64_t last_block = -2;
    int64_t window_pages = 0;
  };

  // Pages a miss reads: 1, or a growing window once misses on a file are sequential.
  int64_t ReadaheadPages(const PageId& page) {
    if (config_.readahead_max_pages <= 0) return 1;
    Sequence& seq = sequences_[page.file];
    const bool sequential = page.block == seq.last_block + 1;
    seq.window_pages = sequential ? std::max(kInitialReadaheadPages, seq.window_pages * 2) : 1;
    seq.window_pages = std::min(seq.window_pages, config_.readahead_max_pages);
    seq.last_block = page.block + seq.window_pages - 1;
    return seq.window_pages;
  }

  CacheConfig config_;
  CacheTable table_;  // Shared by both policies: one lookup finds both states.
  ClockSweepImpl shared_;
  LruImpl os_;
  std::map<uint32_t, Sequence> sequences_;
  LruCleaner cleaner_;
  std::vector<PageId> cleaned_;  // Scratch for BackgroundWriterRound().
  CacheStats stats_;
};

}  // namespace

const char* CacheOutcomeName(CacheOutcome outcome) {
  switch (outcome) {
    case CacheOutcome::kSharedHit:
      return "shared_hit";
    case CacheOutcome::kOsHit:
      return "os_hit";
    case CacheOutcome::kMiss:
      return "miss";
  }
  return "?";
}

StatusOr<std::unique_ptr<BufferCache>> BufferCache::Create(const CacheConfig& config) {
  if (config.shared_buffers_pages < 16) {
    return Status::Error("shared_buffers must be at least 16 pages (128 KiB), got " +
                         std::to_string(config.shared_buffers_pages));
  }
  if (config.os_cache_pages < 0) return Status::Error("os cache size must be >= 0");
  constexpr int64_t kMaxPages = std::numeric_limits<int32_t>::max();  // Slot numbers.
  if (config.shared_buffers_pages > kMaxPages || config.os_cache_pages > kMaxPages) {
    return Status::Error("shared_buffers and the os cache must be below 2^31 pages (16 TiB)");
  }
  if (config.max_usage_count < 1 || config.max_usage_count > 5) {
    return Status::Error("max_usage_count must be in [1, 5]");
  }
  if (config.readahead_max_pages < 0) return Status::Error("readahead must be >= 0");
  if (config.bgwriter_lru_maxpages < 0) {
    return Status::Error("bgwriter_lru_maxpages must be >= 0, got " +
                         std::to_string(config.bgwriter_lru_maxpages));
  }
  if (!(config.bgwriter_lru_multiplier >= 0 && config.bgwriter_lru_multiplier <= 10)) {
    return Status::Error("bgwriter_lru_multiplier must be in [0, 10]");
  }
  if (config.bgwriter_delay_ms < 1) return Status::Error("bgwriter_delay must be >= 1 ms");
  if (config.os_active_ratio < 0) return Status::Error("os_active_ratio must be >= 0");
  return std::unique_ptr<BufferCache>(new BufferCacheImpl(config));
}

}  // namespace pgstorsim
