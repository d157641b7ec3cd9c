// Engine helpers declared in engine_thread.h: clock, SQLSTATE classes, statement preparation.
#include <sys/resource.h>

#include <chrono>

#include "driver/engine_client.h"
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

ClientCpu ProcessCpuNow() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  ClientCpu c;
  c.user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
  c.sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  c.voluntary_switches = ru.ru_nvcsw;
  c.involuntary_switches = ru.ru_nivcsw;
  c.minor_faults = ru.ru_minflt;
  return c;
}

ClientCpu CpuDelta(const ClientCpu& before, const ClientCpu& after) {
  ClientCpu d;
  d.user_s = after.user_s - before.user_s;
  d.sys_s = after.sys_s - before.sys_s;
  d.voluntary_switches = after.voluntary_switches - before.voluntary_switches;
  d.involuntary_switches = after.involuntary_switches - before.involuntary_switches;
  d.minor_faults = after.minor_faults - before.minor_faults;
  d.committed = after.committed - before.committed;
  return d;
}

double ClientCpu::UsPerTransaction() const {
  return committed > 0 ? (user_s + sys_s) * 1e6 / static_cast<double>(committed) : 0.0;
}

Status PrepareStatements(PGconn* conn, const ScriptMix& mix) {
  for (size_t i = 0; i < mix.slots.size(); ++i) {
    const StatementSlot& slot = mix.slots[i];
    PGresult* res =
        PQprepare(conn, PreparedName(i).c_str(), slot.prepared_sql.c_str(), slot.params, nullptr);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    std::string err = PQresultErrorMessage(res);
    PQclear(res);
    if (!ok) {
      while (!err.empty() && err.back() == '\n') err.pop_back();
      return Status::Error("preparing '" + slot.name + "': " + err);
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
