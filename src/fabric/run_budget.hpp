#pragma once
// Estimates, made before the allocation or the write, of what a simulation would cost, refused
// beyond core/limits.hpp with one line saying how big it would be and what to change (instead of
// running out of memory, running for hours or filling the disk). O(1) each.
#include <cstddef>
#include <stdexcept>
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

// The most circuit records whose output files fit the cap of check_output_budget.
[[nodiscard]] std::size_t max_circuit_records();

// Thrown by a scheduler whose schedule already holds more than max_circuit_records() records
// that will stay in it, so a periodic frame repeated over a long iteration stops before its
// circuit list fills the memory; the registry reports it as check_output_budget would.
class OutputOverBudget : public std::runtime_error {
 public:
  explicit OutputOverBudget(std::size_t records);
  std::size_t records;
};

// check_output_budget's refusal of `s.records` circuit records (at least that many).
[[noreturn]] void refuse_output(const OutputOverBudget& s, std::string_view scheduler,
                                const std::string& fabric_file);

}  // namespace flux::fabric
