// Internal to the simulator: the clock around the PostgreSQL host model
// (pgmodel/host.h) for one run. Clients (closed loop or open loop at a rate) run
// transactions statement by statement; each statement's page touches go through the
// host (a miss blocks the client on a filesystem-block read through the controller;
// dirty victims and extensions become OS writes), then it takes its CPU cost on a
// FCFS multi-core CPU and inserts its WAL; a commit waits for the WAL flush (group
// commit). An UPDATE of a row another open transaction updated waits (RowLocks) until
// that transaction's commit is durable; the wait counts in the UPDATE's latency. When
// the host says a checkpoint is due (timer or WAL volume at a transaction's end), its
// dirty pages go to the BackgroundWriter, paced over the host's spread.
// The engine walks its parts (controller, WAL, background writer, row locks, CPU):
// each starts itself and reports its own sections; the engine reports the summary,
// statements, series and the host's figures.
// Thread safety: none.
#ifndef PGSTORSIM_SIM_ENGINE_H_
#define PGSTORSIM_SIM_ENGINE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/histogram.h"
#include "common/results.h"
#include "pgmodel/host.h"
#include "sim/background_writer.h"
#include "sim/controller.h"
#include "sim/host_cpu.h"
#include "sim/row_lock_waits.h"
#include "sim/sim_config.h"
#include "sim/simulator.h"
#include "sim/volume_map.h"
#include "sim/wal.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace sim {

class Engine : public Component, public IoListener, public WalWaiter {
 public:
  explicit Engine(const SimConfig& config);
  ~Engine() override;
  Status Init();
  // Runs to the end of the configured duration (or transaction count).
  void Run();
  Results BuildResults() const;
  uint64_t events() const { return sim_.events_processed(); }
  uint64_t disk_ops() const;

  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;
  void OnWalFlushed(uint32_t client) override;
  // The summary, statements, series and the sections "cache", "host", "volume_layout",
  // "simulation", and the host's figures in "wal" and "background_writes".
  void Report(ResultsWriter& out) const override;

 private:
  struct Client {
    Client(KeyGenerator k, Random a) : keys(k), arrivals(a) {}
    KeyGenerator keys;
    Random arrivals;
    TxnKeys txn_keys;  // Keys of the running transaction (rows it locks).
    std::vector<StatementEffects> txn;
    size_t statement = 0;
    size_t touch = 0;
    int64_t statement_start_ns = 0;
    int64_t txn_start_ns = 0;  // Scheduled start (open loop) or actual start.
    int64_t next_arrival_ns = 0;
    int64_t done = 0;
    pgmodel::StatementProgress progress;  // Of the running statement.
    uint64_t transaction = 0;             // Global number of the running transaction.
    int64_t commit_lsn = 0;               // WAL position after the statement's records.
    // Direct data writes: the victims' writes still to issue, then the read.
    std::vector<TraceRecord> pending_ios;
  };
  struct Interval {
    uint64_t transactions = 0;
    double latency_sum_ns = 0;
  };

  void StartTransaction(uint32_t c);
  void StartStatement(uint32_t c);
  void ContinueTouches(uint32_t c);
  // Direct data writes: issues the client's next pending I/O; false when none is left.
  bool SubmitPending(uint32_t c);
  bool LockStatementRow(uint32_t c);
  void LockGranted(uint32_t c);
  void EndTransactionLocks(uint32_t c);
  void FinishStatementWork(uint32_t c);
  void StatementDone(uint32_t c);
  void NextTransaction(uint32_t c);
  void CheckpointIfDue();
  void ArmCheckpointTimer();
  void SeriesTick();
  bool Accepting(const Client& client) const;

  const SimConfig config_;
  Simulator sim_;
  std::unique_ptr<pgmodel::Host> host_;
  std::unique_ptr<Controller> controller_;
  std::optional<VolumeMap> map_;
  std::unique_ptr<WalLog> wal_;
  std::unique_ptr<BackgroundWriter> writer_;
  std::unique_ptr<RowLockWaits> row_locks_;
  std::unique_ptr<HostCpu> cpu_;
  std::vector<Component*> parts_;  // The above, in Start and Report order.
  std::vector<uint32_t> granted_;  // Scratch for RowLockWaits::ReleaseAll.
  std::vector<Client> clients_;
  std::vector<CacheIo> ios_;
  uint64_t transactions_started_ = 0;
  int clients_finished_ = 0;
  int64_t end_ns_ = 0;
  int64_t interval_ns_ = 0;
  // Measurements.
  uint64_t transactions_ = 0;
  int64_t last_commit_ns_ = 0;
  bool checkpoint_timer_armed_ = false;
  LatencyHistogram txn_latency_;
  std::array<LatencyHistogram, kStatementCount> statement_latency_;
  std::vector<IntervalSample> series_;
  Interval interval_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_ENGINE_H_
