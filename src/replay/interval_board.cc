#include "replay/interval_board.h"

#include <algorithm>
#include <chrono>

#include "common/units.h"
#include "io/io_engine.h"

namespace pgstorsim {

IntervalBoard::IntervalBoard(int workers, int64_t start_ns, int64_t interval_ns,
                             IntervalCallback callback)
    : start_ns_(start_ns),
      interval_ns_(interval_ns),
      callback_(std::move(callback)),
      published_(workers, 0),
      done_(workers, false),
      running_(workers) {}

void IntervalBoard::MergeLocked(int w, size_t upto, const std::vector<IntervalStats>& mine) {
  if (rows_.size() < upto) rows_.resize(upto);
  // Intervals in [mine.size(), upto) passed without a completion: nothing to add.
  for (size_t i = published_[w]; i < std::min(upto, mine.size()); ++i) {
    rows_[i].reads.Merge(mine[i].reads);
    rows_[i].writes.Merge(mine[i].writes);
    rows_[i].transactions += mine[i].transactions;
    rows_[i].txn_latency_sum_ns += mine[i].txn_latency_sum_ns;
  }
  published_[w] = std::max(published_[w], upto);
}

void IntervalBoard::Publish(int w, size_t upto, const std::vector<IntervalStats>& mine) {
  std::lock_guard<std::mutex> lock(mu_);
  MergeLocked(w, upto, mine);
  news_ = true;
  cv_.notify_one();
}

void IntervalBoard::Finish(int w, const std::vector<IntervalStats>& mine) {
  std::lock_guard<std::mutex> lock(mu_);
  MergeLocked(w, mine.size(), mine);
  if (!done_[w]) {
    done_[w] = true;
    --running_;
  }
  last_finish_ns_ = std::max(last_finish_ns_, MonotonicNowNs());
  news_ = true;
  cv_.notify_one();
}

bool IntervalBoard::Drain(int64_t wait_ns) {
  std::vector<std::pair<size_t, IntervalStats>> ready;
  bool all_done = false;
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::nanoseconds(wait_ns), [this] { return news_; });
    news_ = false;
    size_t complete = rows_.size();
    for (size_t w = 0; w < published_.size(); ++w) {
      if (!done_[w]) complete = std::min(complete, published_[w]);
    }
    for (; emitted_ < complete; ++emitted_) ready.emplace_back(emitted_, rows_[emitted_]);
    all_done = running_ == 0;
  }
  // Rows emitted while workers run are whole intervals; the last one ends with the
  // last worker.
  const int64_t now_ns = all_done ? last_finish_ns_ : MonotonicNowNs();
  for (const auto& [index, row] : ready) {
    const int64_t begin_ns = start_ns_ + static_cast<int64_t>(index) * interval_ns_;
    const int64_t length_ns = std::clamp<int64_t>(now_ns - begin_ns, 1, interval_ns_);
    if (callback_) callback_(index, row, NsToSec(length_ns));
  }
  return all_done;
}

}  // namespace pgstorsim
