#include "model/sweep.h"

#include <cstdio>
#include <sstream>

#include "model/prediction_results.h"

namespace pgstorsim {
namespace {

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

}  // namespace

StatusOr<SweepTable> RunSweepTable(const Scenario& base, const std::vector<std::string>& specs) {
  SweepTable table;
  std::vector<std::vector<std::string>> values;
  for (const std::string& spec : specs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      return Status::Error("--sweep '" + spec + "': expected key=v1,v2,...");
    }
    const std::string key = spec.substr(0, eq);
    if (!GetScenarioKey(base, key).ok() && key.rfind("calibration.", 0) != 0) {
      return Status::Error("--sweep: unknown key '" + key + "'");
    }
    table.keys.push_back(key);
    values.push_back(SplitCommas(spec.substr(eq + 1)));
  }
  std::vector<size_t> index(values.size(), 0);
  while (true) {
    SweepPoint point;
    Scenario s = base;
    Status st;
    for (size_t k = 0; k < values.size() && st.ok(); ++k) {
      point.values.push_back(values[k][index[k]]);
      st = SetScenarioKey(&s, table.keys[k], values[k][index[k]]);
    }
    if (st.ok()) st = ValidateScenario(s);
    if (st.ok()) {
      auto p = Predict(s);
      if (p.ok())
        point.prediction = *p;
      else
        st = p.status();
    }
    point.ok = st.ok();
    if (!st.ok()) point.error = st.message();
    table.points.push_back(point);
    size_t k = values.size();
    while (k > 0 && ++index[k - 1] == values[k - 1].size()) index[--k] = 0;
    if (k == 0) break;
  }
  return table;
}

std::string FormatSweepTable(const SweepTable& t) {
  std::ostringstream out;
  for (const std::string& k : t.keys) out << k << "\t";
  out << "tps\tUPDATE accounts ms\tEND ms\tregime\n";
  char buf[160];
  for (const SweepPoint& p : t.points) {
    for (const std::string& v : p.values) out << v << "\t";
    if (!p.ok) {
      out << "refused: " << p.error << "\n";
      continue;
    }
    const auto& lat = p.prediction.statement_latency_ms;
    auto get = [&](const char* n) { return lat.count(n) ? lat.at(n) : 0.0; };
    std::snprintf(buf, sizeof buf, "%.1f\t%.2f\t%.2f\t%s\n", p.prediction.tps,
                  get("UPDATE accounts"), get("END"), p.prediction.regime.c_str());
    out << buf;
  }
  return out.str();
}

}  // namespace pgstorsim
