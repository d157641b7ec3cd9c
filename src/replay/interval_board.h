// IntervalBoard: live per-interval output while a replay runs. Each worker publishes
// its own finished intervals (once per interval it moves past, under a mutex: cheap);
// a row is handed to the callback, in order, once every still-running worker has
// moved past it, so a printed row is final and equals what the results hold.
// Thread safety: Publish/Finish from workers, Drain from one reporting thread.
#ifndef PGSTORSIM_REPLAY_INTERVAL_BOARD_H_
#define PGSTORSIM_REPLAY_INTERVAL_BOARD_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "replay/replayer.h"

namespace pgstorsim {

class IntervalBoard {
 public:
  // Interval i covers [start_ns + i * interval_ns, start_ns + (i + 1) * interval_ns).
  IntervalBoard(int workers, int64_t start_ns, int64_t interval_ns, IntervalCallback callback);

  // Worker `w` has finished every interval before `upto` (exclusive) of `mine`.
  void Publish(int w, size_t upto, const std::vector<IntervalStats>& mine);
  // Worker `w` is done: all of `mine` is final.
  void Finish(int w, const std::vector<IntervalStats>& mine);
  // Blocks up to `wait_ns` for news, then emits every complete row not yet emitted.
  // Returns true once all workers have finished and every row was emitted.
  bool Drain(int64_t wait_ns);

 private:
  void MergeLocked(int w, size_t upto, const std::vector<IntervalStats>& mine);

  int64_t start_ns_;
  int64_t interval_ns_;
  IntervalCallback callback_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<IntervalStats> rows_;
  std::vector<size_t> published_;  // Per worker: intervals merged so far.
  std::vector<bool> done_;
  int running_;
  bool news_ = false;
  int64_t last_finish_ns_ = 0;
  size_t emitted_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_INTERVAL_BOARD_H_
