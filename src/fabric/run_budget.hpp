#pragma once
// Estimates, made before the allocation or the write, of what a simulation would cost, refused
// beyond core/limits.hpp with one line saying how big it would be and what to change (instead of
// running out of memory, running for hours or filling the disk). O(1) each.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::fabric {

// Schedulers that hold GPUs x GPUs matrices (static, bvn, spectra-phase) or step through every
// pair once per matching cycle (rotornet*). Refusals name `fabric_file`, whose size decides.
void check_scheduler_budget(const Fabric& f, std::string_view scheduler,
                            const std::string& fabric_file);

// Which of a run's output files that list circuits it writes (a run asked only for its summary
// writes none of them): the output budget counts these.
struct CircuitOutputs {
  bool csv = true;       // circuits.csv
  bool schedule = true;  // circuit-schedule.json
  bool timeline = true;  // timeline.json
  // The files among `files` (names from sim_output_files(), plus summary.json).
  [[nodiscard]] static CircuitOutputs among(const std::vector<std::string>& files);
  // Not counted by the budget: nic_buffer.csv or timeline.json, which show the NIC-buffer curves.
  // Only then does the replay keep the curves of its metrics (SimOptions::keep_buffer_series);
  // false (the default) leaves them to the writer.
  bool buffer_curves = false;
  [[nodiscard]] bool any() const { return csv || schedule || timeline; }
};

// The output files of a run with this schedule, checked before the replay: about 270 bytes per
// circuit record over circuits.csv, circuit-schedule.json and timeline.json, counting only the
// files `outputs` writes. Without any of them the records still stay in memory until the replay
// has checked and counted them: their memory is bounded instead (kMaxCircuitRecordBytes).
void check_output_budget(const TimedSchedule& s, std::string_view scheduler,
                         const std::string& fabric_file, CircuitOutputs outputs = {});

// The most circuit records whose output files fit the cap of check_output_budget when every file
// is written.
[[nodiscard]] std::size_t max_circuit_records();
// The most circuit records a run writing `outputs` may have (files, or memory without files).
[[nodiscard]] std::size_t max_circuit_records(CircuitOutputs outputs);

// Thrown while a schedule is being built or replayed that already holds more than a budget
// allows: circuit records past max_circuit_records() that will stay in it (a periodic frame
// repeated over a long iteration), or hops past kMaxHops. The run stops before the lists fill the
// memory; the registry (and the replay of a schedule file) reports it as check_output_budget
// does, naming the scheduler and the fabric file.
class ScheduleOverBudget : public std::runtime_error {
 public:
  // `limit`: "0.5 GB of output"; `size`: what the schedule has, "at least 1851852 circuit records";
  // `advice`: what would make it smaller.
  ScheduleOverBudget(std::string limit, std::string size, std::string advice);
  std::string limit, size, advice;
};

// Past max_circuit_records(outputs): the limit named is the files' or, without them, the memory's.
// Its own type: a scheduler that lists every circuit it plays may then list only those that
// carried a hop instead (bvn).
class CircuitRecordsOverBudget : public ScheduleOverBudget {
 public:
  using ScheduleOverBudget::ScheduleOverBudget;
};
[[nodiscard]] CircuitRecordsOverBudget circuit_records_over_budget(std::size_t records,
                                                                   CircuitOutputs outputs = {});
[[nodiscard]] ScheduleOverBudget hops_over_budget(std::size_t hops);

// The InputError of check_output_budget for `over`, naming `file` and `field` (the fabric file
// and --scheduler for a registered scheduler, the schedule file for a replay).
[[noreturn]] void refuse_schedule(const ScheduleOverBudget& over, std::string_view scheduler,
                                  const std::string& file,
                                  const std::string& field = "--scheduler");

}  // namespace flux::fabric
