// RowLockWaits: the row locks of a transaction's UPDATE statements as the engine meets
// them. Each UPDATE locks its row (accounts by aid, tellers by tid, branches by bid)
// once its page touches are done, as heap_update does before it meets another
// transaction's update of the row; a locked row queues the client (RowLocks) until
// the holder's transaction ends. Counts each statement's waits and waiting time and
// reports the section "row_locks". Disabled (calibration row_locks = 0): every lock is
// granted at once and the report says so.
// Units: ns. Clients are numbered 0 .. clients-1. Thread safety: none.
#ifndef PGSTORSIM_SIM_ROW_LOCK_WAITS_H_
#define PGSTORSIM_SIM_ROW_LOCK_WAITS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/row_locks.h"
#include "sim/simulator.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace sim {

class RowLockWaits : public Component {
 public:
  // `statements`: the workload's statements, in the order the report lists them.
  RowLockWaits(bool enabled, int clients, std::vector<Statement> statements);

  // `client` running `statement` of the transaction with `keys` locks its row at
  // now_ns: true if it may go on, false if it waits (a later ReleaseAll grants it).
  bool Acquire(Statement statement, const TxnKeys& keys, uint32_t client, int64_t now_ns);
  // The waiting `client` got its row at now_ns; its wait counts for `statement`.
  void Granted(Statement statement, uint32_t client, int64_t now_ns);
  // `client`'s transaction ended: its rows pass to their first waiters, appended to
  // *granted.
  void ReleaseAll(uint32_t client, std::vector<uint32_t>* granted);

  void HandleEvent(const Event& e) override {}
  void Report(ResultsWriter& out) const override;

 private:
  struct Waits {
    uint64_t waits = 0;
    int64_t wait_ns = 0;
  };

  std::unique_ptr<RowLocks> locks_;  // Null when disabled.
  const std::vector<Statement> statements_;
  std::vector<int64_t> wait_start_ns_;  // Per client, while it waits.
  std::array<Waits, kStatementCount> waits_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_ROW_LOCK_WAITS_H_
