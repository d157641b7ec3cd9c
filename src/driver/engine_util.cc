// Engine helpers declared in engine_thread.h: clock, SQLSTATE classes, statement preparation.
#include <chrono>

#include "driver/engine_thread.h"
#include "driver/statement_sql.h"

namespace pgstorsim {

bool SqlStateIsRetryable(const std::string& sqlstate) {
  return sqlstate == "40001" || sqlstate == "40P01";
}

bool SqlStateIsConnectionLoss(const std::string& sqlstate) {
  return sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03" ||
         sqlstate.rfind("08", 0) == 0;
}

int64_t MonotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status PrepareStatements(PGconn* conn, WorkloadKind kind) {
  const auto& defs = DriverStatements(kind);
  for (size_t i = 0; i < defs.size(); ++i) {
    std::string name = "s" + std::to_string(i);
    PGresult* res = PQprepare(conn, name.c_str(), defs[i].sql.c_str(),
                              static_cast<int>(defs[i].params.size()), nullptr);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    std::string err = PQresultErrorMessage(res);
    PQclear(res);
    if (!ok) {
      while (!err.empty() && err.back() == '\n') err.pop_back();
      return Status::Error("preparing '" + std::string(defs[i].name()) + "': " + err);
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
