#include "common/sweep_shards.h"

#include <cstdio>
#include <map>

namespace pgstorsim {
namespace {

// (i, n) from "i/n"; false when malformed.
bool ShardOf(const Results& r, int* i, int* n) {
  const nlohmann::json& sweep = r.config.value("sweep", nlohmann::json::object());
  const std::string text = sweep.value("shard", "");
  return std::sscanf(text.c_str(), "%d/%d", i, n) == 2 && *n >= 1 && *i >= 1 && *i <= *n;
}

// What must agree between shards of one sweep.
nlohmann::json Identity(const Results& r) {
  nlohmann::json sweep = r.config.value("sweep", nlohmann::json::object());
  sweep.erase("shard");
  return {{"kind", r.kind},
          {"sweep", sweep},
          {"scenario_toml", r.config.value("scenario_toml", "")},
          {"slo", r.sections.contains("slo") ? r.sections["slo"].value("objective", "") : ""}};
}

}  // namespace

bool IsSweepShard(const Results& r) {
  int i = 0, n = 0;
  return r.config.contains("sweep") && ShardOf(r, &i, &n);
}

StatusOr<Results> JoinSweepShards(const std::vector<Results>& shards,
                                  const std::vector<std::string>& names) {
  if (shards.empty()) return Status::Error("merge: no sweep shards given");
  auto name = [&](size_t k) { return k < names.size() ? names[k] : "shard " + std::to_string(k + 1); };
  const nlohmann::json identity = Identity(shards[0]);
  std::map<int, size_t> by_index;
  int count = 0;
  for (size_t k = 0; k < shards.size(); ++k) {
    int i = 0, n = 0;
    if (!ShardOf(shards[k], &i, &n)) {
      return Status::Error(name(k) + ": not a sweep shard (no config.sweep.shard i/n)");
    }
    if (k == 0) count = n;
    if (n != count) {
      return Status::Error(name(k) + ": shard " + std::to_string(i) + "/" + std::to_string(n) +
                           " of a sweep cut in " + std::to_string(count) + " (" + name(0) + ")");
    }
    if (Identity(shards[k]) != identity) {
      return Status::Error(name(k) + ": a different sweep, scenario or objective than " +
                           name(0));
    }
    if (!by_index.emplace(i, k).second) {
      return Status::Error(name(k) + ": shard " + std::to_string(i) + " given twice (also " +
                           name(by_index[i]) + ")");
    }
  }
  for (int i = 1; i <= count; ++i) {
    if (!by_index.count(i)) {
      return Status::Error("merge: shard " + std::to_string(i) + "/" + std::to_string(count) +
                           " missing");
    }
  }
  Results joined = shards[by_index.begin()->second];
  nlohmann::json rows = nlohmann::json::array();
  nlohmann::json configurations = nlohmann::json::array();
  bool have_base = false;
  for (const auto& [i, k] : by_index) {
    const Results& s = shards[k];
    for (const auto& row : s.sections.value("sweep", nlohmann::json::array())) {
      if (row.value("index", static_cast<size_t>(rows.size())) != rows.size()) {
        return Status::Error(name(k) + ": sweep row " + std::to_string(rows.size()) +
                             " out of order or missing");
      }
      if (!have_base && row.value("base", false)) {
        have_base = true;
        joined.tps = s.tps;
        joined.duration_s = s.duration_s;
        joined.transactions = s.transactions;
        joined.transaction_latency = s.transaction_latency;
        joined.statements = s.statements;
        joined.series = s.series;
      }
      rows.push_back(row);
    }
    if (s.sections.contains("slo")) {
      for (const auto& c : s.sections["slo"].value("configurations", nlohmann::json::array())) {
        configurations.push_back(c);
      }
    }
  }
  const size_t points = identity["sweep"].value("points", static_cast<size_t>(0));
  if (rows.size() != points) {
    return Status::Error("merge: the shards hold " + std::to_string(rows.size()) +
                         " sweep points of " + std::to_string(points));
  }
  joined.sections["sweep"] = rows;
  joined.config["sweep"]["shard"] = "1/1";
  if (joined.sections.contains("slo")) {
    int met = 0;
    for (const auto& c : configurations) met += c.value("meets", false) ? 1 : 0;
    joined.sections["slo"]["configurations"] = configurations;
    joined.sections["slo"]["met_by"] = met;
  }
  return joined;
}

}  // namespace pgstorsim
