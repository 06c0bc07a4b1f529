#pragma once
// `ideal`: an ideal electrical fabric — every GPU has one
// non-blocking link of σ·B per direction and no reconfiguration; the sends in flight share the
// links max-min fairly (progressive filling over the senders' and receivers' capacities), fluid,
// recomputed whenever a send starts or ends. A send is delivered α after its last byte left.
// The reference point the OCS schedulers are compared against. Cost per rate change:
// O((F + R) log R) for F sends in flight and R busy links.
#include "fabric/scheduler.hpp"

namespace flux {

[[nodiscard]] ScheduleRun schedule_ideal(const Workload& w, const Fabric& f,
                                         Progress& progress = no_progress());

}  // namespace flux
