// pgbench custom scripts (`run -f FILE@W`): the parser and a per-client interpreter.
//
// Language (pgbench's, the subset pgstorsim runs): SQL commands end at a ';' outside
// quotes and comments (or at the end of the file) and may span lines; ":name" in SQL is
// the variable's value ("::" is a cast); meta-commands start a line with a backslash
// and end at its end (a trailing backslash continues the line): \set NAME EXPR,
// \sleep N|:VAR [us|ms|s], \if EXPR, \elif EXPR, \else, \endif (script_expr.h has the
// expressions). Other meta-commands (\gset, \aset, \setshell, \shell,
// \startpipeline, ...) and unbalanced \if blocks are errors naming the file and line.
//
// ScriptRunner executes one client's transactions: meta-commands run inside Next(),
// which stops at each SQL command (to be sent by the engine), at a \sleep, or at the
// end of the script. Variables persist across a client's transactions and scripts
// (pgbench's semantics); "scale", "client_id" and "random_seed" are preset by the
// caller. Under the simple protocol an undefined :name stays as written (as pgbench);
// under the prepared protocol it is an error. Thread safety: scripts are immutable
// after parsing; one ScriptRunner per client, used by one thread.
#ifndef PGSTORSIM_WORKLOAD_PGBENCH_SCRIPT_H_
#define PGSTORSIM_WORKLOAD_PGBENCH_SCRIPT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "workload/script_expr.h"

namespace pgstorsim {

struct ScriptSql {
  int line = 0;
  std::string text;                // As written, whitespace runs collapsed to one space.
  std::string prepared;            // ":name" replaced by $1, $2 (one per distinct name).
  std::vector<int> param_slots;    // Variable slot of $i+1.
  std::vector<std::string> parts;  // Simple protocol: parts[0] var[0] parts[1] ... parts[n].
  std::vector<int> part_slots;     // Variable slot of each occurrence.
};

enum class ScriptCommandKind { kSql, kSet, kSleep, kIf, kElif, kElse, kEndif };

struct ScriptCommand {
  ScriptCommandKind kind = ScriptCommandKind::kSql;
  int line = 0;
  int sql = -1;                // kSql: index into PgbenchScript::sql.
  int slot = -1;               // kSet: variable assigned.
  ScriptExprPtr expr;          // kSet, kIf, kElif, kSleep.
  int64_t sleep_unit_us = 1;   // kSleep: microseconds per unit.
  size_t next_branch = 0;      // kIf, kElif: the next \elif, \else or \endif.
  size_t end = 0;              // kIf, kElif, kElse: the matching \endif.
};

struct PgbenchScript {
  std::string name;  // File name (or label) for messages and reports.
  std::vector<ScriptCommand> commands;
  std::vector<ScriptSql> sql;
};

// Errors: "<name>:<line>: <what>".
StatusOr<PgbenchScript> ParsePgbenchScript(const std::string& text, const std::string& name,
                                           VariableTable* variables);
// Reads and parses `path`; errors name the file.
StatusOr<PgbenchScript> LoadPgbenchScript(const std::string& path, VariableTable* variables);

struct ScriptAction {
  enum class Kind { kSql, kSleep, kEnd };
  Kind kind = Kind::kEnd;
  int sql = -1;          // kSql: index into the script's sql.
  int64_t sleep_us = 0;  // kSleep.
};

class ScriptRunner {
 public:
  // `variables` must outlive the runner and hold every slot the scripts use.
  ScriptRunner(const VariableTable* variables, Random random);

  void Set(const std::string& name, ScriptValue value);
  // Starts a transaction of `script` (must outlive it).
  void Begin(const PgbenchScript* script);
  // Runs meta-commands up to the next SQL command, \sleep, or the end of the script.
  // Errors: "<name>:<line>: <what>" (undefined variable, division by zero, ...).
  Status Next(ScriptAction* action);
  // The values of sql.param_slots as text, in buffers valid until the next call.
  // Errors name the undefined variable.
  Status Params(const ScriptSql& sql, std::vector<const char*>* values);
  // The SQL with variables substituted (simple protocol).
  void SimpleText(const ScriptSql& sql, std::string* out) const;

 private:
  Status Fail(const ScriptCommand& c, const Status& s) const;
  Status Truth(const ScriptCommand& c, bool* out);

  const VariableTable* variables_;
  Random random_;
  std::vector<ScriptValue> values_;
  std::vector<std::array<char, 32>> param_text_;  // FormatScriptValue buffers.
  const PgbenchScript* script_ = nullptr;
  size_t pc_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_PGBENCH_SCRIPT_H_
