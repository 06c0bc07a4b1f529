#pragma once
// `ideal`: an ideal electrical fabric — every GPU has one
// non-blocking link of σ·B per direction and no reconfiguration; the sends in flight share the
// links max-min fairly (progressive filling over the senders' and receivers' capacities), fluid,
// recomputed at each instant at which sends start or end (once, after all of that instant's
// events), for the sends that share a link (directly or through others) with one that started or
// ended. A send is delivered α after its last byte left.
// The reference point the OCS schedulers are compared against. Cost per instant with a change:
// O((F + R) log R) for the F sends and R links connected to the changes, plus O(sends in flight)
// when the clock moved (each of them gets a hop then).
#include "fabric/scheduler.hpp"

namespace flux::fabric_baselines {

[[nodiscard]] fabric::ScheduleRun schedule_ideal(const workload::Workload& w,
                                                 const fabric::Fabric& f,
                                                 Progress& progress = no_progress());

}  // namespace flux::fabric_baselines
