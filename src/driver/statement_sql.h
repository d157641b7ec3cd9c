// What the driver sends for the statements of a workload (workload/tpcb.h owns the
// workload kinds, statement identities and names, and the keys): the SQL with $1..
// placeholders (prepared protocol) and their values, the same SQL with the values
// inlined (simple protocol), and pgbench's summary title of each builtin script.
// The SQL text is derived from StatementSql (pgbench's :aid-style script), numbering
// the variables in order of first appearance. Thread safety: immutable data and pure
// functions.
#ifndef PGSTORSIM_DRIVER_STATEMENT_SQL_H_
#define PGSTORSIM_DRIVER_STATEMENT_SQL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "workload/tpcb.h"

namespace pgstorsim {

// pgbench's name for the summary: "<builtin: TPC-B (sort of)>", ...
const char* WorkloadPgbenchTitle(WorkloadKind kind);

enum class Param { kAid, kTid, kBid, kDelta };

struct StatementDef {
  Statement statement = Statement::kBegin;
  std::string sql;            // With $1.. placeholders (prepared form).
  std::vector<Param> params;  // Value for $i+1.

  const char* name() const { return StatementName(statement); }  // "UPDATE accounts", ...
};

// The statements of one transaction of `kind`, in WorkloadStatements order.
const std::vector<StatementDef>& DriverStatements(WorkloadKind kind);

// The statement with placeholders replaced by the keys' values (simple protocol).
std::string SimpleSql(const StatementDef& def, const TxnKeys& keys);
// The value of parameter `p` for `keys`, and its text form.
int64_t ParamValue(Param p, const TxnKeys& keys);
std::string ParamText(Param p, const TxnKeys& keys);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_STATEMENT_SQL_H_
