// WalLog: PostgreSQL's WAL as the storage sees it. The host model inserts records
// (pgmodel/host.h, page headers included) and tells the log its insert position; a
// commit waits until its position is durable. A flush writes
// the 8 KiB WAL pages between the flushed and the insert position (a partly filled
// page is rewritten by the next flush) and then fsyncs, through the controller.
// Commits that arrive while a flush is in progress wait for the next one, which
// covers all of them: group commit. With the WAL on its own ideal device a flush
// takes `ideal_flush_ns`. With `writer_delay_ns` > 0 the WAL writer flushes
// everything inserted every writer_delay_ns (asynchronous commit); 0: no WAL writer.
// Reports the section "wal". Units: bytes, ns. Thread safety: none.
#ifndef PGSTORSIM_SIM_WAL_H_
#define PGSTORSIM_SIM_WAL_H_

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>

#include "sim/controller.h"
#include "sim/simulator.h"
#include "sim/volume_map.h"

namespace pgstorsim {
namespace sim {

// Told when a waiter's commit is durable.
class WalWaiter {
 public:
  virtual ~WalWaiter() = default;
  virtual void OnWalFlushed(uint32_t waiter) = 0;
};

class WalLog : public Component, public IoListener {
 public:
  // `controller` null = ideal separate WAL device. Pointers must outlive the log.
  WalLog(Simulator& sim, Controller* controller, const VolumeMap* map, WalWaiter* waiter,
         int64_t writer_delay_ns, int64_t ideal_flush_ns = 20'000);

  // The insert position moved to `lsn` (never backwards).
  void Inserted(int64_t lsn);
  // True if `lsn` is already durable; otherwise `waiter` is told later.
  bool WaitFlushed(int64_t lsn, uint32_t waiter);
  // Starts a flush of everything inserted, if none is running (WAL writer).
  void FlushAll();
  int64_t insert_lsn() const { return insert_lsn_; }

  void Start() override;  // The WAL writer's first round.
  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;
  void Report(ResultsWriter& out) const override;

 private:
  struct Waiting {
    int64_t lsn;
    uint32_t waiter;
  };
  void StartFlush();
  void FlushDone();

  Simulator& sim_;
  Controller* controller_;
  const VolumeMap* map_;
  WalWaiter* waiter_;
  const int64_t writer_delay_ns_;
  const int64_t ideal_flush_ns_;
  int64_t insert_lsn_ = 0;
  int64_t flushed_lsn_ = 0;
  int64_t flush_target_ = 0;
  bool flushing_ = false;
  int writes_outstanding_ = 0;
  std::deque<Waiting> waiting_;
  uint64_t flushes_ = 0;
  uint64_t commits_flushed_ = 0;
  int64_t bytes_written_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_WAL_H_
