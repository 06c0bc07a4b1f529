#pragma once
// The flux.summary/1 document of a scheduler's run: the simulator's summary, the scheduler's
// options echoed from its table, and the solver block when the scheduler solved something.
#include <nlohmann/json.hpp>
#include <string>

#include "schedulers/registry.hpp"

namespace flux::schedulers {

[[nodiscard]] nlohmann::ordered_json run_summary(const SchedulerResult& run,
                                                 const workload::Workload& w,
                                                 const fabric::Fabric& f,
                                                 const std::string& workload_file,
                                                 const std::string& fabric_file);

}  // namespace flux::schedulers
