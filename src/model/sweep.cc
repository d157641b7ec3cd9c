#include "model/sweep.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "model/prediction_results.h"
#include "trace/trace_record.h"
#include "workload/tpcb.h"

namespace pgstorsim {

namespace {

// The statements a workload of `kind` spends its storage time in (SweepTable::statements).
std::vector<std::string> TimedStatements(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kIo:
      return {IoOpName(IoOp::kRead), IoOpName(IoOp::kWrite)};
    case WorkloadKind::kSelectOnly:
      return {StatementName(Statement::kSelectAccounts)};
    case WorkloadKind::kTpcbLike:
    case WorkloadKind::kSimpleUpdate:
      break;
  }
  return {StatementName(Statement::kUpdateAccounts), StatementName(Statement::kEnd)};
}

std::vector<std::string> TableStatements(const Scenario& base, const SweepSpec& spec) {
  std::vector<WorkloadKind> kinds = {base.workload.type};
  for (size_t k = 0; k < spec.keys.size(); ++k) {
    if (spec.keys[k] != "workload.type") continue;
    for (const std::string& v : spec.values[k]) {
      auto kind = ParseWorkloadKind(v);
      if (kind.ok()) kinds.push_back(*kind);
    }
  }
  std::vector<std::string> out;
  for (WorkloadKind kind : kinds) {
    for (std::string& name : TimedStatements(kind)) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    }
  }
  return out;
}

}  // namespace

StatusOr<SweepTable> RunSweepTable(const Scenario& base, const std::vector<std::string>& specs,
                                   const Shard& shard) {
  auto spec = ParseSweepSpec(base, specs);
  if (!spec.ok()) return spec.status();
  SweepTable table;
  table.spec = *spec;
  table.keys = spec->keys;
  table.shard = shard;
  table.total_points = spec->PointCount();
  table.statements = TableStatements(base, *spec);
  const auto [first, last] = ShardRange(table.total_points, shard);
  for (size_t i = first; i < last; ++i) {
    SweepPoint point;
    point.index = i;
    point.values = spec->PointValues(i);
    auto s = ApplySweepPoint(base, *spec, point.values);
    Status st = s.status();
    if (st.ok()) {
      auto p = Predict(*s);
      if (p.ok())
        point.prediction = *p;
      else
        st = p.status();
    }
    point.ok = st.ok();
    if (!st.ok()) point.error = st.message();
    table.points.push_back(point);
  }
  return table;
}

std::string FormatSweepTable(const SweepTable& t) {
  std::ostringstream out;
  for (const std::string& k : t.keys) out << k << "\t";
  out << "tps\tp95 ms\t";
  for (const std::string& name : t.statements) out << name << " ms\t";
  out << "regime\n";
  char buf[64];
  for (const SweepPoint& p : t.points) {
    for (const std::string& v : p.values) out << v << "\t";
    if (!p.ok) {
      out << "refused: " << p.error << "\n";
      continue;
    }
    std::snprintf(buf, sizeof buf, "%.1f\t%.2f\t", p.prediction.tps,
                  p.prediction.transaction_percentiles.p95_ms);
    out << buf;
    const auto& lat = p.prediction.statement_latency_ms;
    for (const std::string& name : t.statements) {
      auto it = lat.find(name);
      if (it == lat.end()) {
        out << "-\t";
        continue;
      }
      std::snprintf(buf, sizeof buf, "%.2f\t", it->second);
      out << buf;
    }
    out << p.prediction.regime << "\n";
  }
  return out.str();
}

}  // namespace pgstorsim
