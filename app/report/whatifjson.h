#pragma once
// The JSON of a what-if result (whatif/scenario/whatifpipeline.h), printed by `rankscope-cli
// scenario run --json` and by `rankscope --batch SCENARIO --json` (the GUI's controller and
// job, offscreen): one function, so both print the same keys from the same value.
//
// Keys, every kind: `name`, `kind`, `notes`, `warnings`. Replay and scale: `span`, `measured`
// and `baseline` ({runtime_ns, mpi_ns}), `calibration_error_pct` (baseline - measured),
// `calibration` (when one was tried: `source`, `source_ranks`, `applied`,
// `uncalibrated_error_pct`, `calibrated_error_pct`, `applied_error_pct`, `overrides`,
// `reason`), `idle_edits`, and `edited`, one object per run (per sweep value, with `value`):
// runtime_ns, mpi_ns, wait_ns, effect_ns, effect_pct (edited vs baseline), mpi_effect_ns,
// error_pct (prediction vs measured). Scale also keeps `target`, `ranks`, `events`,
// `predicted_runtime_ns` at the top (a sweep: `runs`, with `sweep_param`). A replay with the
// SimGrid engine adds `engines`. Extrapolate: `target`, `method_chosen`, `predicted` and
// `other` ({method, mode, max_rank_delta_sum_ns, low_ns, high_ns, accuracy_pct, w1_normalized,
// held_out_error_pct}), `measured_max_rank_delta_sum_ns`.

#include "whatif/scenario/whatifpipeline.h"

#include <nlohmann/json.hpp>

namespace rankscope {

nlohmann::ordered_json whatIfJson(const whatif::WhatIfResult& r);
/// A predicted trace against the measured run (`structure_match` of `predict --json` and of a
/// scale scenario's runs).
nlohmann::ordered_json structureMatchJson(const extrap::StructureMatch& s);
/// Adds the envelope of every --json answer to `j`: `inputs` (per trace read: `path`,
/// `partial`, `warnings`) and, unless `j` has its own key of that name, `partial` (any input
/// partial). Also the command line's printJson adds it.
void addInputsJson(nlohmann::ordered_json& j, const std::vector<TraceNotice>& inputs);
/// The `calibration` object alone (also `predict --json` and `calibrate --json` use its keys).
nlohmann::ordered_json calibrationJson(const whatif::WhatIfCalibration& c);

} // namespace rankscope
