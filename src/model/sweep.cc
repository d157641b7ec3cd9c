#include "model/sweep.h"

#include <cstdio>
#include <sstream>

#include "model/prediction_results.h"

namespace pgstorsim {

StatusOr<SweepTable> RunSweepTable(const Scenario& base, const std::vector<std::string>& specs,
                                   const Shard& shard) {
  auto spec = ParseSweepSpec(base, specs);
  if (!spec.ok()) return spec.status();
  SweepTable table;
  table.spec = *spec;
  table.keys = spec->keys;
  table.shard = shard;
  table.total_points = spec->PointCount();
  if (base.workload.type == WorkloadKind::kIo) {
    table.first_statement = "read";
    table.second_statement = "write";
  }
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
  out << "tps\tp95 ms\t" << t.first_statement << " ms\t" << t.second_statement << " ms\tregime\n";
  char buf[160];
  for (const SweepPoint& p : t.points) {
    for (const std::string& v : p.values) out << v << "\t";
    if (!p.ok) {
      out << "refused: " << p.error << "\n";
      continue;
    }
    const auto& lat = p.prediction.statement_latency_ms;
    auto get = [&](const char* n) { return lat.count(n) ? lat.at(n) : 0.0; };
    std::snprintf(buf, sizeof buf, "%.1f\t%.2f\t%.2f\t%.2f\t%s\n", p.prediction.tps,
                  p.prediction.transaction_percentiles.p95_ms, get(t.first_statement.c_str()),
                  get(t.second_statement.c_str()), p.prediction.regime.c_str());
    out << buf;
  }
  return out.str();
}

}  // namespace pgstorsim
