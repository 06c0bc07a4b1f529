#pragma once
// `static`: one fixed set of circuits per OCS for the whole iteration,
// set up once (τ unless the initial configuration is free) and never changed; each send goes,
// whole, on the OCS whose port to its destination frees first. A send between GPUs that no OCS
// connects makes the run fail with an InputError naming it.
// The circuits are given (`--topology "0-1,2-3/1-2,3-0"`, one list per OCS) or chosen for the
// heaviest traffic: per OCS in turn, a greedy maximum-weight matching of the pairs not yet
// connected (heaviest pair first, ties by index). O(n² log n) per OCS.
#include <string>

#include "fabric/scheduler.hpp"
#include "fabric_baselines/round_robin.hpp"

namespace flux::fabric_baselines {

[[nodiscard]] std::vector<Matching> parse_topology(const std::string& text,
                                                   const fabric::Fabric& f);
[[nodiscard]] std::vector<Matching> heaviest_topology(const workload::Workload& w,
                                                      const fabric::Fabric& f);
[[nodiscard]] fabric::ScheduleRun schedule_static(const workload::Workload& w,
                                                  const fabric::Fabric& f,
                                                  const fabric::SchedulerOptions& opt);

}  // namespace flux::fabric_baselines
