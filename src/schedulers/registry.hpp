#pragma once
// Every workload scheduler by name — the periodic and aggregate baselines of the fabric, Flux and
// flux-greedy — with its description and its options table. `flux simulate`, `flux cosched`,
// `flux run`, `flux bench flux`, the experiments and the tests reach a scheduler only through
// this list and run_scheduler(), which also replays the schedule through the checker and the
// metrics. Adding a scheduler: a file pair that defines its WorkloadScheduler entry, and one line
// in registry.cpp (docs/architecture.md shows one).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.hpp"
#include "core/progress.hpp"
#include "cosched/flux_scheduler.hpp"
#include "cosched/instance.hpp"
#include "fabric/replay.hpp"
#include "fabric/run_budget.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::schedulers {

// One workload on one fabric. `label` names the workload in errors; a caller that has built the
// instance of the co-scheduling model already passes it so it is not built twice.
struct SchedulingInput {
  const workload::Workload& workload;
  const fabric::Fabric& fabric;
  std::string label = "workload";
  const cosched::CoschedInstance* instance = nullptr;
  std::string fabric_label = "fabric";  // named when the fabric is too large for a scheduler
  Progress& progress = no_progress();   // the scheduler's stages and the replay report here
  fabric::CircuitOutputs outputs = {};  // the files the caller will write (the output budget)
  // The caller reads SchedulerOutput::placed (`flux cosched` writes it); otherwise flux and
  // flux-greedy skip that copy of every message (≈ 0.6 GB at 1,024 GPUs).
  bool keep_placed = false;
};

struct SchedulerOutput {
  fabric::ScheduleRun run;  // the schedule and the events its run took
  std::optional<cosched::SolverReport>
      solver{};  // schedulers that solve an optimisation problem report it
  // Schedulers that place messages without the engine (flux, flux-greedy) say so: the replay's
  // event count stands for theirs. When the caller asks (SchedulingInput::keep_placed), they also
  // hand back the schedule in file form with its exact times (the simulator's form rounds to
  // picoseconds).
  bool without_engine = false;
  std::optional<fabric::CircuitSchedule> placed{};
};

// A scheduler with its options fixed.
using ConfiguredScheduler = std::function<SchedulerOutput(const SchedulingInput&)>;

struct WorkloadScheduler {
  std::string name;
  std::string description;
  OptionTable options;
  // The factory: builds the scheduler from values resolved against `options` (every key present
  // and checked). A value that only fails in context (a topology string that does not parse) is an
  // InputError naming the option's key.
  std::function<ConfiguredScheduler(const OptionValues&)> make;
  bool electrical = false;  // no circuits: hops are not checked against ports
};

[[nodiscard]] const std::vector<WorkloadScheduler>& workload_schedulers();
[[nodiscard]] const WorkloadScheduler* find_workload_scheduler(std::string_view name);
// InputError on field "scheduler" listing the known names if `name` is unknown.
[[nodiscard]] const WorkloadScheduler& workload_scheduler(std::string_view name);

struct SchedulerResult {
  std::string scheduler;
  OptionValues options;   // every option of the scheduler, defaults included
  fabric::SimResult sim;  // the replay: ok, with its metrics
  std::optional<cosched::SolverReport> solver;
  std::optional<fabric::CircuitSchedule> placed;  // see SchedulerOutput::placed
};

// The one entry point for "this workload on this fabric under that scheduler": resolves `given`
// against the table (InputError on the key), checks the workload fits the fabric, schedules, and
// replays the schedule through the checker and the metrics. A schedule the checker rejects is a
// bug of the scheduler (std::logic_error).
[[nodiscard]] SchedulerResult run_scheduler(const WorkloadScheduler& scheduler,
                                            const SchedulingInput& input,
                                            const OptionValues& given = {});
// Same by name; the replay only.
[[nodiscard]] fabric::SimResult simulate(const workload::Workload& w, const fabric::Fabric& f,
                                         std::string_view scheduler, const OptionValues& given = {},
                                         const std::string& workload_file = "workload");

}  // namespace flux::schedulers
