// LruCleaner: internal to src/cache. The background writer's LRU cleaning scan,
// PostgreSQL's BgBufferSync() (src/backend/storage/buffer/bufmgr.c), over a
// ClockSweep. Each Run() is one round (one bgwriter_delay): it estimates how many
// buffers the backends will allocate before the next round (recent allocations,
// fast attack and slow decay, x lru_multiplier, at least a slice that scans the
// whole pool in 120 s) and how many reusable buffers already lie between the clock
// hand and where it cleaned up to, then scans on from there, writing dirty buffers
// of usage count 0, until it has enough reusable buffers, laps the hand, or wrote
// lru_maxpages. State (scan position, smoothed allocation and density) carries from
// round to round. Deterministic. Thread safety: none.
#ifndef PGSTORSIM_CACHE_LRU_CLEANER_H_
#define PGSTORSIM_CACHE_LRU_CLEANER_H_

#include <cstdint>
#include <vector>

#include "cache/buffer_cache.h"

namespace pgstorsim {

class LruCleaner {
 public:
  // REQUIRES: lru_maxpages >= 0, lru_multiplier >= 0, delay_ms >= 1.
  LruCleaner(int64_t lru_maxpages, double lru_multiplier, int64_t delay_ms);

  struct Round {
    int64_t scanned = 0;        // Frames looked at.
    int64_t written = 0;        // Dirty buffers cleaned (appended to *written).
    bool hit_maxpages = false;  // Stopped by lru_maxpages (maxwritten_clean).
  };
  // One round over `clock`. With lru_maxpages 0 it only resets the allocation count.
  Round Run(ClockSweep* clock, std::vector<PageId>* written);

 private:
  int64_t BuffersToLap(const ClockSweep::SyncPoint& point, int64_t frames);
  void UpdateDensity(double scanned, double allocs);

  const int64_t lru_maxpages_;
  const double lru_multiplier_;
  const int64_t delay_ms_;
  bool saved_valid_ = false;
  int64_t prev_frame_ = 0;
  uint64_t prev_passes_ = 0;
  int64_t next_to_clean_ = 0;
  uint64_t next_passes_ = 0;
  double smoothed_alloc_ = 0;
  double smoothed_density_ = 10.0;  // Frames scanned per reusable buffer found.
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_LRU_CLEANER_H_
