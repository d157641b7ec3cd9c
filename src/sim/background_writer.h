// BackgroundWriter: data-page writes that no client waits for, and the OS page cache
// that holds them. Dirty buffers evicted by backends (Enqueue) and the checkpointer's
// writes (handed over at an even pace over checkpoint_completion_target of the
// interval, in (file, block) order) become dirty OS pages. The OS writes them back as
// Linux does with its default thresholds (pgmodel/os_dirty_limits.h): the oldest first
// while the dirty pages exceed the background threshold, and every page older than
// `limits.expire_ns` (a syncer pass every second); the checkpoint's closing fsync writes
// every remaining one at once, as a burst, then flushes. A backend whose write finds the
// dirty and in-writeback bytes above the dirty limit waits until they are below
// (balance_dirty_pages). A page written while it is still dirty in the OS is written
// once (distinct pages of one UFS block are not merged yet, as in predict).
// limits.expire_ns == 0 writes at once. At most `outstanding`
// writes are in flight at the controller; the rest queue here.
// Units: ns, bytes, pages. Thread safety: none.
#ifndef PGSTORSIM_SIM_BACKGROUND_WRITER_H_
#define PGSTORSIM_SIM_BACKGROUND_WRITER_H_

#include <cstdint>
#include <deque>
#include <utility>
#include <nlohmann/json.hpp>
#include <vector>

#include "cache/buffer_cache.h"
#include "cache/page_index.h"
#include "common/flat_hash_map.h"
#include "pgmodel/os_dirty_limits.h"
#include "sim/controller.h"
#include "sim/simulator.h"
#include "sim/volume_map.h"

namespace pgstorsim {
namespace sim {

class BackgroundWriter : public Component, public IoListener {
 public:
  // Pointers must outlive the writer. REQUIRES: outstanding >= 1.
  BackgroundWriter(Simulator& sim, Controller* controller, const VolumeMap* map, int outstanding,
                   const pgmodel::OsDirtyLimits& limits);

  // A backend's write of `pages` blocks of `page.file` from `page.block`.
  void Enqueue(const PageId& page, int64_t pages);
  // After its writes, a backend finding the dirty bytes above the limit waits: true,
  // and `waiter->OnIoDone(token)` is called (from an event) once they are below.
  // `waiter` must outlive the writer.
  bool Throttle(IoListener* waiter, uint64_t token);
  // Starts writing `pages` evenly over `spread_ns` (appended to any unfinished one).
  void StartCheckpoint(std::vector<PageId> pages, int64_t spread_ns);
  bool checkpoint_in_progress() const { return next_ < paced_.size(); }

  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;
  void Report(ResultsWriter& out) const override;  // The section "background_writes".

 private:
  void Pump();
  void AddDirty(const PageId& page, int64_t pages, const VolumeOp& op);
  void Sync(int64_t older_than_ns);
  void ToWriteback(const VolumeOp& op, int64_t dirty_bytes);
  void WriteOldest();
  bool OverLimit() const;
  void WakeWaiters();

  Simulator& sim_;
  Controller* controller_;
  const VolumeMap* map_;
  const int outstanding_limit_;
  const pgmodel::OsDirtyLimits limits_;
  // Dirty bytes count the pages written (8 KiB each), not the filesystem blocks
  // their writes cover: the dirty set of a database never exceeds its size.
  struct Dirty {
    int64_t since_ns;
    PageId page;
    int64_t dirty_bytes;
    VolumeOp op;
  };
  struct Queued {
    VolumeOp op;
    int64_t dirty_bytes;
  };
  std::deque<Dirty> os_dirty_;  // In age order.
  FlatHashMap<PageId, char, PageIdHash> os_dirty_pages_{PageTable<char>::kNoPage};  // Their pages.
  uint64_t absorbed_writes_ = 0;  // Of a page still dirty in the OS.
  int64_t os_dirty_bytes_ = 0;
  int64_t writeback_bytes_ = 0;  // Queued here or in flight.
  std::deque<std::pair<IoListener*, uint64_t>> waiters_;
  bool wake_pending_ = false;
  uint64_t throttled_writes_ = 0;
  bool syncer_pending_ = false;
  int outstanding_ = 0;
  std::deque<Queued> queue_;
  std::vector<PageId> paced_;
  size_t next_ = 0;
  int64_t pace_ns_ = 0;
  bool tick_pending_ = false;
  uint64_t checkpoints_ = 0;
  uint64_t checkpoint_pages_ = 0;
  uint64_t eviction_writes_ = 0;
  uint64_t max_queue_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_BACKGROUND_WRITER_H_
