// BackgroundWriter: data-page writes that no client waits for, and the OS page cache
// that holds them. Dirty buffers evicted by backends (Enqueue) and the checkpointer's
// writes (handed over at an even pace over checkpoint_completion_target of the
// interval, in (file, block) order) become dirty OS pages; the OS writes a page back
// once it is older than `dirty_expire_ns` (a syncer pass every second), and the
// checkpoint's closing fsync writes every remaining one at once, as a burst, then
// flushes. dirty_expire_ns == 0 writes at once. At most `outstanding` writes are in
// flight at the controller; the rest queue here.
// Units: ns, pages. Thread safety: none.
#ifndef PGSTORSIM_SIM_BACKGROUND_WRITER_H_
#define PGSTORSIM_SIM_BACKGROUND_WRITER_H_

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <vector>

#include "cache/buffer_cache.h"
#include "sim/controller.h"
#include "sim/simulator.h"
#include "sim/volume_map.h"

namespace pgstorsim {
namespace sim {

class BackgroundWriter : public Component, public IoListener {
 public:
  // Pointers must outlive the writer. REQUIRES: outstanding >= 1.
  BackgroundWriter(Simulator& sim, Controller* controller, const VolumeMap* map, int outstanding,
                   int64_t dirty_expire_ns);

  // Queues a write of `pages` blocks of `page.file` from `page.block`.
  void Enqueue(const PageId& page, int64_t pages);
  // Starts writing `pages` evenly over `spread_ns` (appended to any unfinished one).
  void StartCheckpoint(std::vector<PageId> pages, int64_t spread_ns);
  bool checkpoint_in_progress() const { return next_ < paced_.size(); }

  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;
  void Report(ResultsWriter& out) const override;  // The section "background_writes".

 private:
  void Pump();
  void AddDirty(const VolumeOp& op);
  void Sync(int64_t older_than_ns);

  Simulator& sim_;
  Controller* controller_;
  const VolumeMap* map_;
  const int outstanding_limit_;
  const int64_t dirty_expire_ns_;
  struct Dirty {
    int64_t since_ns;
    VolumeOp op;
  };
  std::deque<Dirty> os_dirty_;  // In age order.
  bool syncer_pending_ = false;
  int outstanding_ = 0;
  std::deque<VolumeOp> queue_;
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
