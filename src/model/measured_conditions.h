// Measured conditions: a measurement is evidence about the conditions it ran at (scale,
// clients, workload, protocol, cache state; Measured::conditions) and about no others.
// `calibrate` checks them against the scenario it fits and refuses a mismatch.
//
// Keys and values are the scenario's vocabulary ("workload.scale" = "10"). Thread
// safety: pure functions.
#ifndef PGSTORSIM_MODEL_MEASURED_CONDITIONS_H_
#define PGSTORSIM_MODEL_MEASURED_CONDITIONS_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "model/measured.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// The condition keys a measurement can carry, in the order they are checked.
const std::vector<std::string>& ConditionKeys();

// Sets one condition from "key=value" (`--measured-set`): the key must be one of
// ConditionKeys() and the value valid for it; errors name the option.
Status SetMeasuredCondition(Measured* measured, const std::string& assignment);

// Compares every condition `measured` records with `scenario`. The first difference is
// an error of one line naming both values and the file, e.g. "m.txt: measured
// workload.scale = 10, scenario workload.scale = 2000 (...)".
Status CheckConditions(const Measured& measured, const Scenario& scenario);

// A device benchmark: randomio, fio or bonnie++ output, or a measurement whose conditions
// state workload.type = io (`probe --device-benchmark` results). `calibrate` fits one
// on a pgbench scenario as the io workload its conditions describe, on the same storage.
bool IsDeviceBenchmark(const Measured& measured);

// The condition keys `measured` does not record (not checked), for a note.
std::vector<std::string> UnrecordedConditions(const Measured& measured);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MEASURED_CONDITIONS_H_
