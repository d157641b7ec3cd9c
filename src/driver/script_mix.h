// The scripts a run draws its transactions from, as pgbench's -b NAME@W, -S, -N and
// -f FILE@W give them: builtin scripts (tpcb-like, simple-update, select-only; a unique
// prefix is enough, as in pgbench) and custom script files (workload/pgbench_script.h),
// each with an integer weight (default 1). Each transaction picks a script with
// probability weight / total weight. Statement statistics are kept per "slot": the
// builtin scripts' statements (statement_sql.h) and each SQL command of a custom
// script, numbered across scripts in order. Thread safety: immutable once built.
#ifndef PGSTORSIM_DRIVER_SCRIPT_MIX_H_
#define PGSTORSIM_DRIVER_SCRIPT_MIX_H_

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "workload/pgbench_script.h"
#include "workload/tpcb.h"

namespace pgstorsim {

struct ScriptEntry {
  std::string name;  // "tpcb-like" or the file name.
  std::string title;  // pgbench's: "<builtin: TPC-B (sort of)>" or the file name.
  int weight = 1;
  bool builtin = true;
  WorkloadKind kind = WorkloadKind::kTpcbLike;  // Builtin only.
  std::shared_ptr<const PgbenchScript> script;  // Custom only.
  size_t first_slot = 0;
  size_t slots = 0;  // Statements (builtin) or SQL commands (custom).
};

struct StatementSlot {
  std::string name;  // "UPDATE accounts" (builtin) or "<file>:<line>" (custom).
  std::string sql;   // With $n placeholders (builtin) or as written (custom).
  std::string prepared_sql;  // What PQprepare gets.
  int params = 0;
};

struct ScriptMix {
  std::vector<ScriptEntry> entries;
  std::vector<StatementSlot> slots;
  std::shared_ptr<VariableTable> variables;
  int64_t total_weight = 0;

  bool HasCustom() const;
  // The first builtin entry's kind (tpcb-like when there is none): the workload the
  // keys log, trace and model describe.
  WorkloadKind MainKind() const;
};

// `builtins` are -b specs ("select-only@3", "tpcb"), `files` are -f specs
// ("my.sql@2"). With neither, `default_builtin` (e.g. from --workload) alone. Errors
// name the option and the spec; script errors name the file and line.
StatusOr<ScriptMix> BuildScriptMix(const std::vector<std::string>& builtins,
                                   const std::vector<std::string>& files,
                                   const std::string& default_builtin);

// The entry whose cumulative weight covers `draw` in [0, total_weight).
size_t PickScript(const ScriptMix& mix, int64_t draw);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SCRIPT_MIX_H_
