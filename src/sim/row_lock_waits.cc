#include "sim/row_lock_waits.h"

#include <utility>

#include "common/units.h"
#include "sim/results_writer.h"

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

RowLockWaits::RowLockWaits(bool enabled, int clients, std::vector<Statement> statements)
    : locks_(enabled ? std::make_unique<RowLocks>(clients) : nullptr),
      statements_(std::move(statements)),
      wait_start_ns_(clients, -1) {}

bool RowLockWaits::Acquire(Statement statement, const TxnKeys& keys, uint32_t client,
                           int64_t now_ns) {
  Relation relation;
  int64_t key;
  if (!locks_ || !LockedRow(statement, keys, &relation, &key)) return true;
  if (locks_->Acquire(relation, key, client)) return true;
  wait_start_ns_[client] = now_ns;
  return false;
}

void RowLockWaits::Granted(Statement statement, uint32_t client, int64_t now_ns) {
  Waits& w = waits_[static_cast<int>(statement)];
  ++w.waits;
  w.wait_ns += now_ns - wait_start_ns_[client];
  wait_start_ns_[client] = -1;
}

void RowLockWaits::ReleaseAll(uint32_t client, std::vector<uint32_t>* granted) {
  if (locks_) locks_->ReleaseAll(client, granted);
}

void RowLockWaits::Report(ResultsWriter& out) const {
  nlohmann::json by_statement = nlohmann::json::object();
  uint64_t waits = 0;
  int64_t wait_ns = 0;
  for (Statement s : statements_) {
    const Waits& w = waits_[static_cast<int>(s)];
    if (!LocksRow(s)) continue;
    waits += w.waits;
    wait_ns += w.wait_ns;
    by_statement[StatementName(s)] = {
        {"waits", w.waits},
        {"wait_ms_total", static_cast<double>(w.wait_ns) / kNsPerMs},
        {"wait_ms_mean", w.waits ? static_cast<double>(w.wait_ns) / kNsPerMs / w.waits : 0.0}};
  }
  out.Section("row_locks") = {{"enabled", locks_ != nullptr},
                              {"waits", waits},
                              {"wait_ms_total", static_cast<double>(wait_ns) / kNsPerMs},
                              {"by_statement", by_statement}};
}

}  // namespace sim
}  // namespace pgstorsim
