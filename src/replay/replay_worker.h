// Worker and Flusher, the threads of RunReplay (internal to src/replay).
//
// A Worker plays its share of the trace's transactions on its own IoEngine and IoCore:
// it issues each record (closed loop back to back, open loop at its trace time), times
// and counts it, and publishes its finished intervals to the IntervalBoard. With
// buffered data writes, data writes go to the shared OsWriteback and the Flusher
// writes them back. A commit's WAL write and fsync go through the shared WalFlushGroup
// (PostgreSQL's group commit). replayer.cc partitions the trace, starts these threads and merges
// what they measured; replay_worker.cc holds their issue loops.
// Thread safety: each Worker and the Flusher run on one thread of their own.
#ifndef PGSTORSIM_REPLAY_REPLAY_WORKER_H_
#define PGSTORSIM_REPLAY_REPLAY_WORKER_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "io/io_core.h"
#include "io/io_engine.h"
#include "replay/array_io.h"
#include "replay/interval_board.h"
#include "replay/os_writeback.h"
#include "replay/replayer.h"
#include "replay/wal_flush_group.h"
#include "trace/trace_record.h"

namespace pgstorsim {

using Txn = std::vector<TraceRecord>;

// True once `o.stop` is set.
bool Stopped(const ReplayOptions& o);

class Worker {
 public:
  Worker(int id, std::unique_ptr<IoEngine> engine, DeviceStats* stats, StripeLocks* locks,
         const ReplaySetup* setup, const ReplayOptions* options, uint64_t seed,
         OsWriteback* writeback, WalFlushGroup* wal)
      : id_(id),
        engine_(std::move(engine)),
        core_(engine_.get(), stats),
        io_(&core_, stats, locks, seed),
        setup_(setup),
        options_(options),
        writeback_(writeback),
        wal_(wal) {}

  // Runs `txns` from `start_ns`; `span_ns` shifts each repetition in open loop.
  // Publishes finished intervals to `board` and finishes there.
  void Run(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns, IntervalBoard* board);

  ReplayOutcome& result() { return result_; }
  int64_t end_ns() const { return end_ns_; }

 private:
  AccessOutcome Exec(const TraceRecord& r);
  const Volume& VolumeOf(uint32_t file) const;  // The volume file `file` lives on.
  // The commit whose WAL records are txn[first, *next) (WAL writes ending in the WAL's
  // fsync, found from `first`) made durable through the WalFlushGroup; false (nothing
  // done) when txn[first] does not start such a commit.
  bool CommitWal(const Txn& txn, size_t first, size_t* next, AccessOutcome* out);
  // Writes `ranges` and flushes their volumes (a group commit's flush).
  AccessOutcome FlushWal(const std::vector<WalRange>& ranges);
  // Counts one issued record (or group of records) and its latency.
  void Record(const TraceRecord& r, const AccessOutcome& o, int64_t latency, int64_t start_ns);
  // write() into the page cache; a writer over the dirty limit writes back the oldest
  // ranges itself (balance_dirty_pages).
  AccessOutcome BufferedWrite(const TraceRecord& r, const Volume& v, int64_t offset);
  // fsync of a data file: its dirty ranges are written, then the flush (`flush`, done
  // after them) completes.
  AccessOutcome WriteBackFile(uint32_t file, AccessOutcome flush);
  static void Add(AccessOutcome* total, const AccessOutcome& part);
  void RunPasses(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns);
  // A worker's completion times only grow, so moving to a later interval means every
  // earlier one is final: publish them.
  IntervalStats& IntervalAt(int64_t t_ns, int64_t start_ns);
  void RunTxn(const Txn& txn, int64_t base_ns, int64_t start_ns);

  int id_;
  int64_t end_ns_ = 0;
  IntervalBoard* board_ = nullptr;
  std::unique_ptr<IoEngine> engine_;
  IoCore core_;
  ArrayIo io_;
  const ReplaySetup* setup_;
  const ReplayOptions* options_;
  OsWriteback* writeback_;  // Null: data writes at once.
  WalFlushGroup* wal_;      // The workers' group commit (not owned).
  ReplayOutcome result_;
};

// The kernel's writeback worker: writes what OsWriteback hands it until stopped.
class Flusher {
 public:
  Flusher(std::unique_ptr<IoEngine> engine, DeviceStats* stats, StripeLocks* locks, uint64_t seed,
          OsWriteback* writeback)
      : engine_(std::move(engine)),
        core_(engine_.get(), stats),
        io_(&core_, stats, locks, seed),
        writeback_(writeback) {}

  // Writes what OsWriteback hands it, waking at least every 5 s, until it is stopped.
  void Run();

  uint64_t writes_ = 0, member_requests_ = 0, member_errors_ = 0;

 private:
  std::unique_ptr<IoEngine> engine_;
  IoCore core_;
  ArrayIo io_;
  OsWriteback* writeback_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_REPLAY_WORKER_H_
