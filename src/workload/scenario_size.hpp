#pragma once
// What a scenario would generate, bounded before generating it: the iteration's task count, one
// rank's compute time and the largest message must stay within core/limits.hpp. Each estimate is
// a lower bound, so a refused scenario is certainly beyond the limit. O(1).
#include <string>

#include "workload/scenario.hpp"

namespace flux::workload {

void check_scenario_size(const Scenario& s, const std::string& label);
// The lower bound on the iteration's task count that check_scenario_size holds against the limit
// (ranks x micro-batches x layers per stage x tasks per layer); sweeps rank their cells by it.
[[nodiscard]] double estimated_task_count(const Scenario& s);

}  // namespace flux::workload
