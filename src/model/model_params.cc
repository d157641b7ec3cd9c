// The analytic model's calibratable parameters by name (storage_model.h): the names and
// their order come from the shared [calibration] table (scenario/calibration_keys.h);
// here each is bound to its ModelParams field.
#include <string>
#include <vector>

#include "model/destage_cost.h"
#include "model/storage_model.h"
#include "scenario/calibration_keys.h"

namespace pgstorsim {
namespace {

// The ModelParams field of a model key; nullptr for any other name.
double ModelParams::*Field(const std::string& name) {
  static const std::pair<const char*, double ModelParams::*> kFields[] = {
      {"read_seek_scale", &ModelParams::read_seek_scale},
      {"destage_position_ms", &ModelParams::destage_position_ms},
      {"destage_queue_depth", &ModelParams::destage_queue_depth},
      {"cpu_ms", &ModelParams::cpu_ms},
      {"commit_ms", &ModelParams::commit_ms},
      {"cache_fraction", &ModelParams::cache_fraction},
      {"destage_threshold", &ModelParams::destage_threshold},
      {"fork_join_weight", &ModelParams::fork_join_weight},
      {"update_residence_share", &ModelParams::update_residence_share},
      {"whole_block_reads", &ModelParams::whole_block_reads},
      {"ssd_read_latency_scale", &ModelParams::ssd_read_latency_scale},
      {"ssd_write_latency_scale", &ModelParams::ssd_write_latency_scale}};
  for (const auto& [key, field] : kFields) {
    if (name == key) return field;
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string>& ModelParamNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> model;
    for (const CalibrationKey& key : CalibrationKeys()) {
      if (key.model) model.push_back(key.name);
    }
    return model;
  }();
  return names;
}

void SetParam(ModelParams* p, const std::string& name, double v) {
  if (double ModelParams::*field = Field(name)) p->*field = v;
}

double GetParam(const ModelParams& p, const std::string& name) {
  double ModelParams::*field = Field(name);
  return field ? p.*field : 0;
}

ModelParams ParamsFromScenario(const Scenario& s) {
  ModelParams p;
  p.destage_queue_depth = DestageQueueDepthOf(s);
  for (const auto& [name, value] : s.calibration.values) SetParam(&p, name, value);
  return p;
}

}  // namespace pgstorsim
