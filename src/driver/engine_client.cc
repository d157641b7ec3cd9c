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

void InitClient(int id, PgConn conn, const ScriptMix& mix, int scale, uint64_t seed,
                int64_t start_ns, EngineClient* c) {
  const Random master(seed);
  const uint64_t base = 2 * static_cast<uint64_t>(id);
  c->id = id;
  c->conn = std::move(conn);
  c->key_gens.clear();
  for (size_t k = 0; k < mix.entries.size(); ++k) {
    c->key_gens.emplace_back(mix.entries[k].kind, scale, master.Fork(base + (k << 32)));
  }
  c->sched_rng = master.Fork(base + 1);
  c->mix_rng = master.Fork(base + (uint64_t{1} << 40));
  c->sched_ns = start_ns;
  if (mix.HasCustom()) {
    c->runner = std::make_unique<ScriptRunner>(mix.variables.get(),
                                               master.Fork(base + (uint64_t{1} << 41)));
    c->runner->Set("scale", ScriptValue::Int(scale));
    c->runner->Set("client_id", ScriptValue::Int(id));
    c->runner->Set("random_seed", ScriptValue::Int(static_cast<int64_t>(seed)));
  }
}

PreparedName::PreparedName(size_t slot) {
  text_[0] = 's';
  *std::to_chars(text_ + 1, text_ + sizeof text_ - 1, slot).ptr = '\0';
}

bool SendStatement(EngineClient* c, size_t slot, const StatementDef& def, bool prepared) {
  c->sqlstate.clear();
  if (!prepared) return PQsendQuery(c->conn.get(), SimpleSql(def, c->keys).c_str()) != 0;
  char text[kMaxParams][kParamChars];
  const char* ptrs[kMaxParams];
  FormatParams(def, c->keys, text, ptrs);
  return PQsendQueryPrepared(c->conn.get(), PreparedName(slot).c_str(),
                             static_cast<int>(def.params.size()), ptrs, nullptr, nullptr, 0) != 0;
}

Status SendScriptSql(EngineClient* c, size_t slot, const ScriptSql& sql, bool prepared,
                     bool* sent) {
  c->sqlstate.clear();
  if (!prepared) {
    static thread_local std::string text;
    c->runner->SimpleText(sql, &text);
    *sent = PQsendQuery(c->conn.get(), text.c_str()) != 0;
    return Status::Ok();
  }
  static thread_local std::vector<const char*> values;
  Status s = c->runner->Params(sql, &values);
  if (!s.ok()) return s;
  *sent =
      PQsendQueryPrepared(c->conn.get(), PreparedName(slot).c_str(),
                          static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0) != 0;
  return Status::Ok();
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
