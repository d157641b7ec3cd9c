// Converts a Prediction into the shared results schema (kind "predict"): summary tps,
// one statement entry per statement (its histogram holds the single modelled mean),
// config = the canonical scenario, sections.prediction = devices, regime, error band.
#ifndef PGSTORSIM_MODEL_PREDICTION_RESULTS_H_
#define PGSTORSIM_MODEL_PREDICTION_RESULTS_H_

#include <nlohmann/json.hpp>

#include "common/results.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

nlohmann::json PredictionToJson(const Prediction& p);
Results PredictionToResults(const Scenario& s, const Prediction& p);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_PREDICTION_RESULTS_H_
