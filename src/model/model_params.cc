// The analytic model's calibratable parameters by name (storage_model.h).
#include <string>
#include <vector>

#include "model/storage_model.h"

namespace pgstorsim {

const std::vector<std::string>& ModelParamNames() {
  static const std::vector<std::string> names = {
      "read_seek_scale",  "destage_position_ms",    "cpu_ms",
      "commit_ms",        "cache_fraction",         "destage_threshold",
      "fork_join_weight", "update_residence_share", "whole_block_reads"};
  return names;
}

void SetParam(ModelParams* p, const std::string& name, double v) {
  if (name == "read_seek_scale") p->read_seek_scale = v;
  if (name == "destage_position_ms") p->destage_position_ms = v;
  if (name == "cpu_ms") p->cpu_ms = v;
  if (name == "commit_ms") p->commit_ms = v;
  if (name == "cache_fraction") p->cache_fraction = v;
  if (name == "destage_threshold") p->destage_threshold = v;
  if (name == "fork_join_weight") p->fork_join_weight = v;
  if (name == "update_residence_share") p->update_residence_share = v;
  if (name == "whole_block_reads") p->whole_block_reads = v;
}

double GetParam(const ModelParams& p, const std::string& name) {
  if (name == "read_seek_scale") return p.read_seek_scale;
  if (name == "destage_position_ms") return p.destage_position_ms;
  if (name == "cpu_ms") return p.cpu_ms;
  if (name == "commit_ms") return p.commit_ms;
  if (name == "cache_fraction") return p.cache_fraction;
  if (name == "destage_threshold") return p.destage_threshold;
  if (name == "fork_join_weight") return p.fork_join_weight;
  if (name == "update_residence_share") return p.update_residence_share;
  if (name == "whole_block_reads") return p.whole_block_reads;
  return 0;
}

ModelParams ParamsFromScenario(const Scenario& s) {
  ModelParams p;
  for (const auto& [name, value] : s.calibration.values) SetParam(&p, name, value);
  return p;
}

}  // namespace pgstorsim
