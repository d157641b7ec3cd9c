// LruCleaner: the background writer's round (BgBufferSync semantics, own code).
#include "cache/lru_cleaner.h"

#include <algorithm>

namespace pgstorsim {
namespace {

constexpr double kSmoothingSamples = 16;
constexpr double kScanWholePoolMs = 120000;

}  // namespace

LruCleaner::LruCleaner(int64_t lru_maxpages, double lru_multiplier, int64_t delay_ms)
    : lru_maxpages_(lru_maxpages),
      lru_multiplier_(lru_multiplier),
      delay_ms_(std::max<int64_t>(1, delay_ms)) {}

// How many frames the cleaner may scan before it laps the clock hand; moves the scan
// position to the hand when the hand has overtaken it.
int64_t LruCleaner::BuffersToLap(const ClockSweep::SyncPoint& point, int64_t frames) {
  if (saved_valid_ && next_passes_ > point.passes) return point.frame - next_to_clean_;
  if (saved_valid_ && next_passes_ == point.passes && next_to_clean_ >= point.frame) {
    return frames - (next_to_clean_ - point.frame);
  }
  next_to_clean_ = point.frame;  // Behind the hand (or the first round): restart there.
  next_passes_ = point.passes;
  return frames;
}

void LruCleaner::UpdateDensity(double scanned, double allocs) {
  if (scanned > 0 && allocs > 0) {
    smoothed_density_ += (scanned / allocs - smoothed_density_) / kSmoothingSamples;
  }
}

LruCleaner::Round LruCleaner::Run(ClockSweep* clock, std::vector<PageId>* written) {
  Round round;
  const ClockSweep::SyncPoint point = clock->SyncStart();
  if (lru_maxpages_ <= 0) {
    saved_valid_ = false;
    return round;
  }
  const int64_t frames = clock->frames();
  // Frames the hand swept since the last round, then where the cleaner stands.
  const int64_t hand_moved =
      saved_valid_
          ? point.frame - prev_frame_ + static_cast<int64_t>(point.passes - prev_passes_) * frames
          : 0;
  const int64_t to_lap = BuffersToLap(point, frames);
  prev_frame_ = point.frame;
  prev_passes_ = point.passes;
  saved_valid_ = true;
  UpdateDensity(static_cast<double>(hand_moved), static_cast<double>(point.recent_allocs));

  const double recent = static_cast<double>(point.recent_allocs);
  const int64_t reusable_est = static_cast<int64_t>((frames - to_lap) / smoothed_density_);
  smoothed_alloc_ = smoothed_alloc_ <= recent
                        ? recent
                        : smoothed_alloc_ + (recent - smoothed_alloc_) / kSmoothingSamples;
  int64_t upcoming = static_cast<int64_t>(smoothed_alloc_ * lru_multiplier_);
  if (upcoming == 0) smoothed_alloc_ = 0;
  const int64_t min_scan =
      static_cast<int64_t>(frames / (kScanWholePoolMs / static_cast<double>(delay_ms_)));
  upcoming = std::max(upcoming, min_scan + reusable_est);

  int64_t reusable = reusable_est;
  while (round.scanned < to_lap && reusable < upcoming) {
    PageId page;
    const int result = clock->CleanIfReusable(next_to_clean_, &page);
    if (++next_to_clean_ >= frames) {
      next_to_clean_ = 0;
      ++next_passes_;
    }
    ++round.scanned;
    if (result & ClockSweep::kReusable) ++reusable;
    if (result & ClockSweep::kWritten) {
      written->push_back(page);
      if (++round.written >= lru_maxpages_) {
        round.hit_maxpages = true;
        break;
      }
    }
  }
  // The scan counts as an allocation scan for the density estimate.
  UpdateDensity(static_cast<double>(round.scanned), static_cast<double>(reusable - reusable_est));
  return round;
}

}  // namespace pgstorsim
