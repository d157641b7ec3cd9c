#include "driver/engine_client.h"

#include <charconv>
#include <utility>

namespace pgstorsim {
namespace {

constexpr size_t kMaxParams = 4;
constexpr size_t kParamChars = 24;  // An int64 in decimal with sign, plus NUL.

// The first error of the current command: SQLSTATE and primary message.
void NoteError(EngineClient* c, const PGresult* res) {
  const char* code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  const char* primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
  c->sqlstate = code != nullptr ? code : "XX000";
  c->error = std::string(primary != nullptr ? primary : PQresultErrorMessage(res)) + " (SQLSTATE " +
             c->sqlstate + ")";
}

// Formats the statement's parameters into `text` (no allocation) and points `ptrs` at them.
void FormatParams(const StatementDef& def, const TxnKeys& keys, char (*text)[kParamChars],
                  const char** ptrs) {
  for (size_t i = 0; i < def.params.size() && i < kMaxParams; ++i) {
    char* end =
        std::to_chars(text[i], text[i] + kParamChars - 1, ParamValue(def.params[i], keys)).ptr;
    *end = '\0';
    ptrs[i] = text[i];
  }
}

}  // namespace

void InitClient(int id, PgConn conn, WorkloadKind kind, int scale, const Random& master,
                int64_t start_ns, EngineClient* c) {
  c->id = id;
  c->conn = std::move(conn);
  c->key_gen = KeyGenerator(kind, scale, master.Fork(2 * static_cast<uint64_t>(id)));
  c->sched_rng = master.Fork(2 * static_cast<uint64_t>(id) + 1);
  c->sched_ns = start_ns;
}

bool SendStatement(EngineClient* c, size_t index, const StatementDef& def, bool prepared) {
  static const char* const kNames[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
  c->sqlstate.clear();
  if (!prepared) return PQsendQuery(c->conn.get(), SimpleSql(def, c->keys).c_str()) != 0;
  char text[kMaxParams][kParamChars];
  const char* ptrs[kMaxParams];
  FormatParams(def, c->keys, text, ptrs);
  return PQsendQueryPrepared(c->conn.get(), kNames[index], static_cast<int>(def.params.size()),
                             ptrs, nullptr, nullptr, 0) != 0;
}

bool SendRollback(EngineClient* c) { return PQsendQuery(c->conn.get(), "ROLLBACK") != 0; }

ReadOutcome ReadResults(EngineClient* c, std::string* why) {
  PGconn* conn = c->conn.get();
  if (!PQconsumeInput(conn)) {
    *why = PQerrorMessage(conn);
    return ReadOutcome::kLost;
  }
  while (!PQisBusy(conn)) {
    PGresult* res = PQgetResult(conn);
    if (res == nullptr) {
      if (PQstatus(conn) != CONNECTION_BAD) return ReadOutcome::kComplete;
      *why = c->error.empty() ? PQerrorMessage(conn) : c->error;
      return ReadOutcome::kLost;
    }
    ExecStatusType st = PQresultStatus(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && c->sqlstate.empty()) NoteError(c, res);
    PQclear(res);
  }
  return ReadOutcome::kPending;
}

bool DrainIdleInput(EngineClient* c, std::string* why) {
  if (PQconsumeInput(c->conn.get()) && PQstatus(c->conn.get()) != CONNECTION_BAD) return true;
  *why = PQerrorMessage(c->conn.get());
  return false;
}

}  // namespace pgstorsim
