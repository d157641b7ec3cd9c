// Internal to the simulator: the database host model that drives one run. Clients
// (closed loop or open loop at a rate) run transactions statement by statement; each
// statement touches its pages through the BufferCache (a miss blocks the client on a
// filesystem-block read through the controller), then takes its CPU cost on a FCFS
// multi-core CPU, appends WAL (plus full-page images for the first change of a page
// after a checkpoint); a commit waits for the WAL flush (group commit). An UPDATE of
// a row another open transaction updated waits (RowLocks) until that transaction's
// commit is durable; the wait counts in the UPDATE's latency. Periodic
// checkpoints hand dirty pages to the BackgroundWriter. Thread safety: none.
#ifndef PGSTORSIM_SIM_ENGINE_H_
#define PGSTORSIM_SIM_ENGINE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cache/buffer_cache.h"
#include "common/histogram.h"
#include "common/results.h"
#include "sim/background_writer.h"
#include "sim/controller.h"
#include "sim/row_locks.h"
#include "sim/sim_config.h"
#include "sim/simulator.h"
#include "sim/volume_map.h"
#include "sim/wal.h"
#include "workload/database_layout.h"
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
    int64_t pending_fpi_bytes = 0;
    uint64_t transaction = 0;         // Global number of the running transaction.
    int64_t commit_lsn = 0;           // WAL position after the statement's records.
    int64_t lock_wait_start_ns = -1;  // >= 0 while queued for a row lock.
    // Direct data writes: the victims' writes still to issue, then the read.
    std::vector<TraceRecord> pending_ios;
  };
  struct LockWaits {
    uint64_t waits = 0;
    int64_t wait_ns = 0;
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
  nlohmann::json RowLockReport() const;
  void FinishStatementWork(uint32_t c);
  void StatementDone(uint32_t c);
  void NextTransaction(uint32_t c);
  int64_t RunOnCpu(int64_t cost_ns);
  int64_t FullPageImageBytes(const PageTouch& touch);
  void CacheWalPages(int64_t start_lsn, int64_t end_lsn);
  bool MarkChangedSinceCheckpoint(const PageTouch& touch);
  void Checkpoint();
  void SeriesTick();
  void Prewarm();
  bool Accepting(const Client& client) const;

  const SimConfig config_;
  Simulator sim_;
  std::optional<DatabaseLayout> layout_;
  std::unique_ptr<TpcbModel> model_;
  std::unique_ptr<BufferCache> cache_;
  std::unique_ptr<Controller> controller_;
  std::optional<VolumeMap> map_;
  std::unique_ptr<WalLog> wal_;
  std::unique_ptr<BackgroundWriter> writer_;
  std::unique_ptr<RowLocks> row_locks_;  // Null when config_.row_locks is off.
  std::vector<uint32_t> granted_;        // Scratch for RowLocks::ReleaseAll.
  std::vector<Client> clients_;
  std::vector<int64_t> core_free_ns_;
  int64_t cpu_busy_ns_ = 0;
  std::vector<CacheIo> ios_;
  // One bit per page and relation (history wraps): changed since the checkpoint?
  std::array<std::vector<uint64_t>, kRelationCount> changed_since_checkpoint_;
  int64_t history_rows_ = 0;
  uint64_t transactions_started_ = 0;
  int64_t last_history_block_ = -1;  // pgbench_history is empty after init.
  int64_t wal_at_checkpoint_ = 0;
  int64_t fpi_bytes_ = 0;
  uint64_t fpi_count_ = 0;
  int clients_finished_ = 0;
  int64_t end_ns_ = 0;
  int64_t interval_ns_ = 0;
  // Measurements.
  uint64_t transactions_ = 0;
  int64_t last_commit_ns_ = 0;
  LatencyHistogram txn_latency_;
  std::array<LatencyHistogram, kStatementCount> statement_latency_;
  std::array<LockWaits, kStatementCount> lock_waits_;
  std::vector<IntervalSample> series_;
  Interval interval_;
  uint64_t checkpoints_ = 0;
  int64_t last_checkpoint_ns_ = 0;
  CacheStats cache_at_start_;
  int64_t wal_cache_page_ = -1;  // WAL page last written into the OS cache (CacheWalPages)
  int wal_cache_touches_ = 0;    // and how often in a row.
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_ENGINE_H_
