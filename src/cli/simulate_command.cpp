// `flux simulate`: one workload (a file, a scenario or a trace) on one fabric under one
// scheduler, or the replay of a given circuit schedule (`--schedule`); writes summary.json,
// circuits.csv, flows.csv, nic_buffer.csv, circuit-schedule.json and timeline.json into the
// output directory, or the subset `--outputs` names.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "cli/scheduler_flags.hpp"
#include "cli/workload_source.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/run_budget.hpp"
#include "fabric/sim_report.hpp"
#include "schedulers/run_summary.hpp"

namespace flux::cli {
namespace {

struct SimulateArgs {
  WorkloadSource source;
  std::string fabric, scheduler, schedule, out;
  std::vector<std::string> outputs = {"all"};
  SchedulerFlags flags;
};

fabric::SimResult run_replay(const workload::Workload& w, const fabric::Fabric& f,
                             const SimulateArgs& a, fabric::CircuitOutputs outputs,
                             fabric::RunContext& ctx) {
  fabric::CircuitSchedule s = read_circuit_schedule(a.schedule, f);
  ctx.workload_file = a.source.label();
  ctx.fabric_file = a.fabric;
  ctx.scheduler = s.scheduler;
  ctx.replayed = true;
  fabric::SimOptions options;
  options.engine.progress = &progress();
  options.engine.stage = "replay";
  options.keep_buffer_series = outputs.buffer_curves;
  options.keep_circuits = outputs.any();
  fabric::SimResult r;
  try {
    r = replay(w, f, s, options, a.schedule);
  } catch (const fabric::ScheduleOverBudget& over) {  // a file that splits messages too finely
    fabric::refuse_schedule(over, s.scheduler, a.schedule, "/");
  }
  if (!r.ok) {
    std::string first;
    for (std::size_t i = 0; i < r.violations.size() && i < 3; ++i)
      first += (i ? "; " : "") + r.violations[i];
    throw InputError(
        a.schedule, "/",
        fmt::format("a feasible schedule, found {} violations: {}", r.violations.size(), first));
  }
  return r;
}

// The files `--outputs` asks for: "summary" and the names of sim_output_files() without their
// extension, or "all". A run that only needs the summary skips formatting hundreds of MB.
std::vector<std::string> selected_outputs(const std::vector<std::string>& names) {
  std::vector<std::string> known = {"summary.json"};
  for (const std::string& file : fabric::sim_output_files()) known.push_back(file);
  std::vector<std::string> files;
  for (const std::string& name : names) {
    if (name == "all") return known;
    const auto it = std::find_if(known.begin(), known.end(), [&](const std::string& file) {
      return file.substr(0, file.find('.')) == name;
    });
    if (it == known.end())
      throw InputError("", "--outputs",
                       fmt::format("all or names from summary, circuits, flows, nic_buffer, "
                                   "circuit-schedule, timeline, got '{}'",
                                   name));
    files.push_back(*it);
  }
  // Written in the usual order, each once.
  std::vector<std::string> ordered;
  for (const std::string& file : known)
    if (std::find(files.begin(), files.end(), file) != files.end()) ordered.push_back(file);
  return ordered;
}

void write_outputs(const std::string& dir, const std::vector<std::string>& files,
                   const workload::Workload& w, const fabric::Fabric& f, const fabric::SimResult& r,
                   const nlohmann::ordered_json& summary) {
  prepare_output_dir(dir, "--out-dir");
  const std::filesystem::path p(dir);
  ProgressStage stage(progress(), "write outputs",
                      static_cast<double>(files.size()));  // seconds each at 1,024 GPUs
  fabric::SimOutputWriter writer(w, f, r);
  for (const std::string& name : files) {
    OutputFile file((p / name).string());  // streamed: the timeline alone is hundreds of MB
    if (name == "summary.json")
      file.stream() << summary.dump(1) << "\n";
    else
      writer.write(file.stream(), name);
    file.commit();
    stage.advance();
  }
}

// A registered scheduler's run, its summary with the options echoed from its table.
fabric::SimResult scheduled_run(const workload::Workload& w, const fabric::Fabric& f,
                                const SimulateArgs& a, fabric::CircuitOutputs outputs,
                                nlohmann::ordered_json& summary) {
  const schedulers::WorkloadScheduler& s = schedulers::workload_scheduler(a.scheduler);
  schedulers::SchedulerResult run = a.flags.naming_flags([&] {
    return run_scheduler(s, {w, f, a.source.label(), nullptr, a.fabric, progress(), outputs},
                         a.flags.values_for(s));
  });
  if (run.solver)
    fmt::print("solver: {} {}, objective {}, Flux-model bound {}, gap {:.3g}%, {:.2f} s\n",
               run.solver->backend, to_string(run.solver->status),
               format_time(run.solver->objective), format_time(run.solver->bound),
               100 * run.solver->gap, run.solver->seconds);
  if (run.sim.schedule.used_circuits_only)
    fmt::print(
        "circuits: {} played more than the {} records its outputs may hold: only the "
        "circuits that carried bytes are listed, and the reconfigurations and utilization "
        "count those\n",
        a.scheduler, fabric::max_circuit_records(outputs));
  summary = run_summary(run, w, f, a.source.label(), a.fabric);
  return std::move(run.sim);
}

void run_simulate(const SimulateArgs& a, const CLI::App& cmd) {
  if (a.scheduler.empty() == a.schedule.empty())
    throw InputError("", "--scheduler", "exactly one of --scheduler NAME or --schedule FILE");
  const std::vector<std::string> files = selected_outputs(a.outputs);
  const auto circuit_outputs = fabric::CircuitOutputs::among(files);
  const fabric::Fabric f =
      fabric::read_fabric(a.fabric);  // first: a typo in it must not wait for a big workload
  const workload::Workload w = a.source.load_for(f);
  nlohmann::ordered_json summary;
  fabric::RunContext ctx;
  fabric::SimResult r;
  if (a.schedule.empty()) {
    r = scheduled_run(w, f, a, circuit_outputs, summary);
  } else {
    r = run_replay(w, f, a, circuit_outputs, ctx);
    check_output_budget(r.schedule, ctx.scheduler, a.fabric,
                        circuit_outputs);  // registered ones check it themselves
    summary = summary_document(r.metrics, w, f, ctx);
  }
  summary["provenance"] = command_provenance(cmd, a.source.input_files({a.fabric, a.schedule}));
  write_outputs(a.out, files, w, f, r, summary);
  const fabric::SimMetrics& m = r.metrics;
  fmt::print(
      "{}: iteration {}  (critical path {}, fabric lower bound {})  peak NIC buffer {}  "
      "reconfigurations {}  utilization {:.3f}\n",
      a.schedule.empty() ? a.scheduler : ctx.scheduler, format_time(m.iteration_time),
      format_time(m.compute_critical_path), format_time(m.lower_bound),
      format_bytes(m.peak_nic_buffer), m.reconfigurations, m.circuit_utilization);
  if (files.size() == fabric::sim_output_files().size() + 1)
    fmt::print("wrote {}/summary.json and {} more files\n", a.out, files.size() - 1);
  else
    fmt::print("wrote into {}: {}\n", a.out, fmt::join(files, ", "));
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  auto* cmd = app.add_subcommand(
      "simulate", "Simulate one training iteration on an OCS fabric under a scheduler");
  args->source.add_to(*cmd, false, true);
  cmd->add_option("--fabric", args->fabric, "flux.fabric/1 file")->required();
  cmd->add_option("--scheduler", args->scheduler,
                  fmt::format("one of: {}", fmt::join(scheduler_names(), ", ")))
      ->check(CLI::IsMember(scheduler_names()));
  cmd->add_option("--schedule", args->schedule,
                  "replay this flux.circuit-schedule/1 file instead (checked first)");
  cmd->add_option("--out-dir,-o,--out", args->out, "output directory")->required();
  cmd->add_option("--outputs", args->outputs,
                  "files to write: all, or some of summary, circuits, flows, nic_buffer, "
                  "circuit-schedule, timeline")
      ->delimiter(',')
      ->default_str("all");
  args->flags.add_to(*cmd, all_workload_schedulers());
  cmd->callback([args, cmd] { run_simulate(*args, *cmd); });
}

}  // namespace flux::cli
