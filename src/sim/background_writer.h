// BackgroundWriter: data-page writes that no client waits for, and the OS page cache
// that holds them. Dirty buffers evicted by backends (Enqueue) and the checkpointer's
// writes (in (file, block) order, on PostgreSQL's schedule: CheckpointSchedule) become
// dirty OS pages. The OS writes them back as Linux does with its default thresholds
// (pgmodel/os_dirty_limits.h): the oldest first while the dirty pages exceed the
// background threshold, and every page older than `limits.expire_ns` (a syncer pass
// every second). At most `outstanding` writes are in flight at the controller (the
// block layer's queue); the others stay dirty in the page cache, so a page written
// again before its turn is written once. The checkpoint's closing fsync writes every
// page dirty at its start and flushes once all of them are done; the checkpoint ends
// with that flush (PostgreSQL's checkpointer runs one at a time). A backend or the
// checkpointer whose write finds the dirty and in-flight bytes above the dirty limit
// waits until they are below (balance_dirty_pages). Distinct pages of one UFS block are
// not merged yet, as in predict. limits.expire_ns == 0 writes every page (no
// absorption) as soon as the queue has room.
// Units: ns, bytes, pages. Thread safety: none.
#ifndef PGSTORSIM_SIM_BACKGROUND_WRITER_H_
#define PGSTORSIM_SIM_BACKGROUND_WRITER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <utility>
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

// PostgreSQL's checkpoint pacing (IsCheckpointOnSchedule, CheckpointWriteDelay): the
// checkpointer writes while its progress (pages written / pages to write) times
// `completion_target` trails the share of `timeout_ns` elapsed or of `wal_bytes`
// inserted since the checkpoint started, and naps 100 ms when it does not.
struct CheckpointSchedule {
  int64_t timeout_ns = 0;               // > 0.
  int64_t wal_bytes = 0;                // > 0: the WAL since the redo point that starts one.
  double completion_target = 0.9;       // In (0, 1].
  std::function<int64_t()> insert_lsn;  // The WAL insert position, bytes.
};

class BackgroundWriter : public Component, public IoListener {
 public:
  // Pointers must outlive the writer. REQUIRES: outstanding >= 1.
  BackgroundWriter(Simulator& sim, Controller* controller, const VolumeMap* map, int outstanding,
                   const pgmodel::OsDirtyLimits& limits, CheckpointSchedule schedule);

  // A backend's write of `pages` blocks of `page.file` from `page.block`.
  void Enqueue(const PageId& page, int64_t pages);
  // After its writes, a backend finding the dirty bytes above the limit waits: true,
  // and `waiter->OnIoDone(token)` is called (from an event) once they are below.
  // `waiter` must outlive the writer.
  bool Throttle(IoListener* waiter, uint64_t token);
  // Starts writing `pages` on the schedule; the checkpoint ends when its closing
  // fsync completes. REQUIRES: !checkpoint_in_progress().
  void StartCheckpoint(std::vector<PageId> pages);
  bool checkpoint_in_progress() const { return checkpoint_running_; }
  // When a checkpoint ends, an event of `kind` is scheduled on `done` (may be null).
  void set_checkpoint_done(Component* done, int32_t kind) {
    checkpoint_done_ = done;
    checkpoint_done_kind_ = kind;
  }

  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;
  void Report(ResultsWriter& out) const override;  // The section "background_writes".

 private:
  void Pump();
  void AddDirty(const PageId& page, int64_t pages, const VolumeOp& op);
  bool OldestDue() const;
  void WriteOldest();
  void FlushIfSynced();
  bool OverLimit() const;
  void WakeWaiters();
  void FinishCheckpoint();
  void CheckpointerTick();
  bool OnSchedule() const;
  bool WaitBelowLimit(IoListener* waiter, uint64_t token, uint64_t* throttled);

  Simulator& sim_;
  Controller* controller_;
  const VolumeMap* map_;
  const int outstanding_limit_;
  const pgmodel::OsDirtyLimits limits_;
  const CheckpointSchedule schedule_;
  // Dirty bytes count the pages written (8 KiB each), not the filesystem blocks
  // their writes cover: the dirty set of a database never exceeds its size.
  struct Dirty {
    int64_t since_ns;
    uint64_t seq;  // Order of becoming dirty.
    PageId page;
    int64_t dirty_bytes;
    VolumeOp op;
  };
  std::deque<Dirty> os_dirty_;  // In age order.
  uint64_t next_seq_ = 1;
  int64_t expire_before_ns_ = INT64_MIN;  // Pages dirty since earlier are due.
  // The checkpoint's fsync: the pages up to `fsync_seq_` are due; it flushes when none
  // of them is dirty or in flight.
  uint64_t fsync_seq_ = 0;
  bool fsync_waiting_ = false;
  int fsync_in_flight_ = 0;
  FlatHashMap<PageId, char, PageIdHash> os_dirty_pages_{PageTable<char>::kNoPage};  // Their pages.
  uint64_t absorbed_writes_ = 0;  // Of a page still dirty in the OS.
  int64_t os_dirty_bytes_ = 0;
  int64_t writeback_bytes_ = 0;  // In flight.
  std::deque<std::pair<IoListener*, uint64_t>> waiters_;
  bool wake_pending_ = false;
  uint64_t throttled_writes_ = 0;
  uint64_t throttled_checkpointer_writes_ = 0;
  bool syncer_pending_ = false;
  int outstanding_ = 0;
  std::vector<PageId> paced_;
  size_t next_ = 0;
  int64_t start_ns_ = 0;  // Of the running checkpoint.
  int64_t start_lsn_ = 0;
  bool tick_pending_ = false;
  bool checkpoint_running_ = false;
  Component* checkpoint_done_ = nullptr;
  int32_t checkpoint_done_kind_ = 0;
  uint64_t checkpoints_ = 0;
  uint64_t checkpoints_completed_ = 0;
  int64_t checkpoint_ns_total_ = 0;  // Start to closing flush, over the completed ones.
  uint64_t checkpoint_pages_ = 0;
  uint64_t eviction_writes_ = 0;
  uint64_t max_os_dirty_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_BACKGROUND_WRITER_H_
