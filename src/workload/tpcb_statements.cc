// Statements and workload kinds of tpcb.h (names, SQL, each workload's statement list)
// and KeyGenerator, the seeded key draws of pgbench's builtin scripts.
#include <string>
#include <utility>
#include <vector>

#include "workload/tpcb.h"

namespace pgstorsim {

const char* StatementName(Statement s) {
  switch (s) {
    case Statement::kBegin:
      return "BEGIN";
    case Statement::kUpdateAccounts:
      return "UPDATE accounts";
    case Statement::kSelectAccounts:
      return "SELECT accounts";
    case Statement::kUpdateTellers:
      return "UPDATE tellers";
    case Statement::kUpdateBranches:
      return "UPDATE branches";
    case Statement::kInsertHistory:
      return "INSERT history";
    case Statement::kEnd:
      return "END";
  }
  return "?";
}

StatusOr<Statement> ParseStatementName(const std::string& name) {
  for (int i = 0; i < kStatementCount; ++i) {
    if (name == StatementName(static_cast<Statement>(i))) return static_cast<Statement>(i);
  }
  return Status::Error("unknown statement '" + name + "'");
}

const char* StatementSql(Statement s) {
  switch (s) {
    case Statement::kBegin:
      return "BEGIN;";
    case Statement::kUpdateAccounts:
      return "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;";
    case Statement::kSelectAccounts:
      return "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;";
    case Statement::kUpdateTellers:
      return "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;";
    case Statement::kUpdateBranches:
      return "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;";
    case Statement::kInsertHistory:
      return "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, "
             ":aid, :delta, CURRENT_TIMESTAMP);";
    case Statement::kEnd:
      return "END;";
  }
  return "";
}

StatusOr<WorkloadKind> ParseWorkloadKind(const std::string& name) {
  if (name == "tpcb-like" || name == "tpcb") return WorkloadKind::kTpcbLike;
  if (name == "simple-update") return WorkloadKind::kSimpleUpdate;
  if (name == "select-only") return WorkloadKind::kSelectOnly;
  return Status::Error("unknown workload '" + name +
                       "' (expected tpcb-like, simple-update or select-only)");
}

const char* WorkloadKindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return "tpcb-like";
    case WorkloadKind::kSimpleUpdate:
      return "simple-update";
    case WorkloadKind::kSelectOnly:
      return "select-only";
    case WorkloadKind::kIo:
      return "io";
  }
  return "?";
}

std::vector<Statement> WorkloadStatements(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return {Statement::kBegin,
              Statement::kUpdateAccounts,
              Statement::kSelectAccounts,
              Statement::kUpdateTellers,
              Statement::kUpdateBranches,
              Statement::kInsertHistory,
              Statement::kEnd};
    case WorkloadKind::kSimpleUpdate:
      return {Statement::kBegin, Statement::kUpdateAccounts, Statement::kSelectAccounts,
              Statement::kInsertHistory, Statement::kEnd};
    case WorkloadKind::kSelectOnly:
      return {Statement::kSelectAccounts};
    case WorkloadKind::kIo:  // No SQL: device I/O only.
      return {};
  }
  return {};
}

KeyGenerator::KeyGenerator(int64_t scale, uint64_t seed)
    : KeyGenerator(WorkloadKind::kTpcbLike, scale, Random(seed)) {}

KeyGenerator::KeyGenerator(WorkloadKind kind, int64_t scale, Random random)
    : kind_(kind), scale_(scale), random_(std::move(random)) {}

template <bool kValues>
TxnKeys KeyGenerator::Draw() {
  TxnKeys keys;
  keys.aid = random_.UniformInt(1, kAccountsPerScale * scale_);
  if (kind_ == WorkloadKind::kSelectOnly) {
    keys.tid = keys.bid = 0;
    return keys;
  }
  auto draw = [this](int64_t lo, int64_t hi, int64_t* value) {
    if constexpr (kValues) {
      *value = random_.UniformInt(lo, hi);
    } else {
      random_.SkipUniformInt(lo, hi);
    }
  };
  draw(1, kBranchesPerScale * scale_, &keys.bid);
  draw(1, kTellersPerScale * scale_, &keys.tid);
  draw(-5000, 5000, &keys.delta);
  return keys;
}

TxnKeys KeyGenerator::Next() { return Draw<true>(); }

int64_t KeyGenerator::NextAid() { return Draw<false>().aid; }

KeyGenerator ClientKeys(int64_t scale, uint64_t seed, uint32_t client) {
  constexpr uint64_t kKeyStream = 1 << 20;
  return KeyGenerator(scale, Random(seed).Fork(kKeyStream + client).Next());
}

}  // namespace pgstorsim
