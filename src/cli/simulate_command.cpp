// `flux simulate`: one workload on one fabric under one scheduler (issue 5), or the replay of a
// given circuit schedule (`--schedule`); writes summary.json, circuits.csv, flows.csv,
// nic_buffer.csv, circuit-schedule.json and timeline.json into the output directory.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/cosched_support.hpp"
#include "cli/workload_source.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/run_budget.hpp"
#include "fabric/scheduler.hpp"
#include "fabric/sim_report.hpp"

namespace flux::cli {
namespace {

struct SimulateArgs {
  WorkloadSource source;
  std::string fabric, scheduler, schedule, out;
  std::string slot = "0", frame = "0";
  SchedulerOptions options;
  FluxFlags flux;  // --scheduler flux | flux-greedy (src/cosched)
};

SimResult run_replay(const Workload& w, const Fabric& f, const SimulateArgs& a, RunContext& ctx) {
  CircuitSchedule s = read_circuit_schedule(a.schedule, f);
  ctx.scheduler = s.scheduler;
  ctx.replayed = true;
  SimResult r = replay(w, f, s, {}, a.schedule);
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

void write_outputs(const std::string& dir, const Workload& w, const Fabric& f, const SimResult& r,
                   const RunContext& ctx) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, "-o", "a directory that can be created (" + ec.message() + ")");
  const std::filesystem::path p(dir);
  write_file_atomic((p / "summary.json").string(), summary_json(r.metrics, w, f, ctx));
  write_file_atomic((p / "circuits.csv").string(), circuits_csv(r.schedule));
  write_file_atomic((p / "flows.csv").string(), flows_csv(w, r.trace));
  write_file_atomic((p / "nic_buffer.csv").string(), nic_buffer_csv(w, f, r));
  write_file_atomic((p / "circuit-schedule.json").string(),
                    circuit_schedule_to_json(to_circuit_schedule(r.schedule, w, f)));
  write_file_atomic((p / "timeline.json").string(), timeline_json(w, f, r));
}

void run_simulate(SimulateArgs a) {
  if (a.scheduler.empty() == a.schedule.empty())
    throw InputError("", "--scheduler", "exactly one of --scheduler NAME or --schedule FILE");
  a.options.slot = parse_time(a.slot, "--slot");
  a.options.frame = parse_time(a.frame, "--frame");
  const Workload w = a.source.load();
  const Fabric f = read_fabric(a.fabric);
  RunContext ctx{a.source.label(), a.fabric, a.scheduler, a.options, false};
  SimResult r = !a.schedule.empty() ? run_replay(w, f, a, ctx)
                : is_cosched_scheduler(a.scheduler)
                    ? simulate_cosched(w, f, a.scheduler, a.flux.options(), a.source.label())
                    : simulate(w, f, a.scheduler, a.options, a.source.label());
  check_output_budget(r.schedule, ctx.scheduler);
  write_outputs(a.out, w, f, r, ctx);
  const SimMetrics& m = r.metrics;
  fmt::print(
      "{}: iteration {}  (critical path {}, bound {})  peak NIC buffer {}  "
      "reconfigurations {}  utilization {:.3f}\n",
      ctx.scheduler, format_time(m.iteration_time), format_time(m.compute_critical_path),
      format_time(m.lower_bound), format_bytes(m.peak_nic_buffer), m.reconfigurations,
      m.circuit_utilization);
  fmt::print("wrote {}/summary.json and 5 more files\n", a.out);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  auto* cmd = app.add_subcommand(
      "simulate", "Simulate one training iteration on an OCS fabric under a scheduler");
  args->source.add_to(*cmd);
  cmd->add_option("--fabric", args->fabric, "flux.fabric/1 file")->required();
  std::string names;
  for (const Scheduler& s : schedulers()) names += (names.empty() ? "" : ", ") + s.name;
  names += ", flux, flux-greedy";
  cmd->add_option("--scheduler", args->scheduler, "one of: " + names);
  cmd->add_option("--schedule", args->schedule,
                  "replay this flux.circuit-schedule/1 file instead (checked first)");
  cmd->add_option("-o,--out", args->out, "output directory")->required();
  cmd->add_option("--duty-cycle", args->options.duty_cycle,
                  "rotornet*: share of a slot that carries data (default 0.9)");
  cmd->add_option("--slot", args->slot, "rotornet*: slot length, e.g. 10us (default tau/(1-duty))");
  cmd->add_option("--frame", args->frame,
                  "bvn: periodic frame length, e.g. 1ms (default one-shot)");
  cmd->add_option("--topology", args->options.topology,
                  "static: circuits per OCS, e.g. \"0-1,2-3/1-2,0-3\" (default heaviest pairs)");
  cmd->add_option("--phase-algorithm", args->options.phase_algorithm,
                  "spectra-phase: matrix scheduler for each phase (default spectra)");
  args->flux.add_to(*cmd);
  cmd->callback([args] { run_simulate(*args); });
}

}  // namespace flux::cli
