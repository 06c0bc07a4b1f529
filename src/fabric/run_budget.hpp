#pragma once
// Estimates, made before the allocation or the write, of what a simulation would cost, refused
// beyond core/limits.hpp with one line saying how big it would be and what to change (instead of
// running out of memory, running for hours or filling the disk). O(1) each.
#include <string>
#include <string_view>

#include "fabric/fabric.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::fabric {

// Schedulers that hold GPUs x GPUs matrices (static, bvn, spectra-phase) or step through every
// pair once per matching cycle (rotornet*). Refusals name `fabric_file`, whose size decides.
void check_scheduler_budget(const Fabric& f, std::string_view scheduler,
                            const std::string& fabric_file);

// The output files of a run with this schedule (checked before the replay) (about 270 bytes per
// circuit record over circuits.csv, circuit-schedule.json and timeline.json).
void check_output_budget(const TimedSchedule& s, std::string_view scheduler,
                         const std::string& fabric_file);

}  // namespace flux::fabric
