#pragma once
// The `derived` object of a scenario echo: values computed from the scenario (parameter count,
// data-parallel size, micro-batches, bytes per element). The echo writes it for the record; the
// reader accepts it and checks it against its own derivation, so an echo reads back as the same
// scenario and an edited echo cannot pass a stale derived value off as an input.
#include "core/json_reader.hpp"
#include "workload/scenario.hpp"

namespace flux::workload {

void check_scenario_derived(const Scenario& s, const JsonNode& derived);

}  // namespace flux::workload
