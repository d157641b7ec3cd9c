// Engine: row locks of the UPDATE statements (sim/row_locks.h) and their report.
#include "common/units.h"
#include "sim/engine.h"

namespace pgstorsim {
namespace sim {
namespace {

// The row an UPDATE statement locks; false for statements that lock none.
bool LockedRow(Statement statement, const TxnKeys& keys, Relation* relation, int64_t* key) {
  switch (statement) {
    case Statement::kUpdateAccounts:
      *relation = Relation::kAccounts;
      *key = keys.aid;
      return true;
    case Statement::kUpdateTellers:
      *relation = Relation::kTellers;
      *key = keys.tid;
      return true;
    case Statement::kUpdateBranches:
      *relation = Relation::kBranches;
      *key = keys.bid;
      return true;
    default:
      return false;
  }
}

bool LocksRow(Statement statement) {
  Relation relation;
  int64_t key;
  return LockedRow(statement, TxnKeys{}, &relation, &key);
}

}  // namespace

// Called once the statement has found its row (its page touches are done), as
// heap_update does before it meets another transaction's update of the row.
bool Engine::LockStatementRow(uint32_t c) {
  if (!row_locks_) return true;
  Client& client = clients_[c];
  Relation relation;
  int64_t key;
  if (!LockedRow(client.txn[client.statement].statement, client.txn_keys, &relation, &key)) {
    return true;
  }
  if (row_locks_->Acquire(relation, key, c)) return true;
  client.lock_wait_start_ns = sim_.now_ns();
  return false;  // Resumes in LockGranted.
}

void Engine::LockGranted(uint32_t c) {
  Client& client = clients_[c];
  LockWaits& waits = lock_waits_[static_cast<int>(client.txn[client.statement].statement)];
  ++waits.waits;
  waits.wait_ns += sim_.now_ns() - client.lock_wait_start_ns;
  client.lock_wait_start_ns = -1;
  FinishStatementWork(c);
}

nlohmann::json Engine::RowLockReport() const {
  nlohmann::json by_statement = nlohmann::json::object();
  uint64_t waits = 0;
  int64_t wait_ns = 0;
  for (Statement s : host_->workload().statements()) {
    const LockWaits& w = lock_waits_[static_cast<int>(s)];
    if (!LocksRow(s)) continue;
    waits += w.waits;
    wait_ns += w.wait_ns;
    by_statement[StatementName(s)] = {
        {"waits", w.waits},
        {"wait_ms_total", static_cast<double>(w.wait_ns) / kNsPerMs},
        {"wait_ms_mean", w.waits ? static_cast<double>(w.wait_ns) / kNsPerMs / w.waits : 0.0}};
  }
  return {{"enabled", config_.row_locks},
          {"waits", waits},
          {"wait_ms_total", static_cast<double>(wait_ns) / kNsPerMs},
          {"by_statement", by_statement}};
}

}  // namespace sim
}  // namespace pgstorsim
