#pragma once
// The registry entries of Flux (search, MILP, lower bound: cosched/flux_scheduler.hpp) and
// flux-greedy (cosched/greedy.hpp): their options tables, FluxOptions from checked values, and the
// solver report as it is echoed in a summary.
#include <nlohmann/json.hpp>

#include "schedulers/registry.hpp"

namespace flux::schedulers {

[[nodiscard]] WorkloadScheduler flux_scheduler();
[[nodiscard]] WorkloadScheduler flux_greedy_scheduler();

// FluxOptions from values resolved against flux_scheduler().options (or flux-greedy's, whose keys
// are a subset: the rest keep FluxOptions' defaults).
[[nodiscard]] cosched::FluxOptions flux_options(const OptionValues& values);

[[nodiscard]] nlohmann::ordered_json solver_json(const cosched::SolverReport& report);

}  // namespace flux::schedulers
