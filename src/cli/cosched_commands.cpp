// `flux cosched`: schedule one workload on an OCS fabric with Flux (MILP) or flux-greedy — or any
// registered scheduler — replay it in the simulator, print the metrics and solver report; write
// the schedule, the summary, the model (LP/MPS) for another solver, or replay that solver's
// solution.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "cli/scheduler_flags.hpp"
#include "cli/workload_source.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "fabric/fabric_io.hpp"
#include "milp/model_io.hpp"
#include "schedulers/flux_schedulers.hpp"
#include "schedulers/run_summary.hpp"

namespace flux::cli {
namespace {

struct CoschedArgs {
  WorkloadSource source;
  std::string fabric, scheduler = "flux", out, summary, emit_model, solution;
  SchedulerFlags flags;
};

void emit_model(const cosched::CoschedInstance& inst, const cosched::FluxOptions& options,
                const std::string& path) {
  const bool lp = path.ends_with(".lp"), mps = path.ends_with(".mps");
  if (!lp && !mps) throw InputError("", "--emit-model", "a file name ending in .lp or .mps");
  const cosched::FluxModel model = monolithic_model(inst, options);
  write_file_atomic(path, lp ? milp::write_lp(model.milp) : milp::write_mps(model.milp));
  fmt::print("model: {} columns ({} integer), {} rows, time unit {} -> {}\n", model.milp.columns(),
             model.milp.integers(), model.milp.rows.size(), format_time(model.time_unit), path);
}

void print_run(const schedulers::SchedulerResult& run) {
  const fabric::SimMetrics& m = run.sim.metrics;
  fmt::print("scheduler        {}\n", run.scheduler);
  fmt::print("iteration time   {}  (fabric lower bound {}, compute critical path {})\n",
             format_time(m.iteration_time), format_time(m.lower_bound),
             format_time(m.compute_critical_path));
  fmt::print("peak NIC buffer  {}  (waiting {}, total {})\n", format_bytes(m.peak_nic_buffer),
             format_bytes(m.peak_waiting_bytes), format_bytes(m.peak_nic_buffer_total));
  fmt::print("reconfigurations {}\n", m.reconfigurations);
  if (!run.solver) return;
  const cosched::SolverReport& s = *run.solver;
  fmt::print(
      "solver           {} {}: objective {}, Flux-model bound {}, gap {:.4g}%, {:.3f} s, "
      "{} window(s)\n",
      s.backend, to_string(s.status), format_time(s.objective), format_time(s.bound), 100 * s.gap,
      s.seconds, s.windows);
  fmt::print(
      "model            {} columns, {} binaries, {} rows; pairs: {} ordered, {} free, "
      "{} pruned, {} kept apart\n",
      s.columns, s.binaries, s.rows, s.pairs.pairs_ordered, s.pairs.pairs_free,
      s.pairs.pairs_pruned, s.pairs.pairs_separated);
  if (!s.note.empty()) fmt::print("note             {}\n", s.note);
  // The two bounds answer different questions (docs/models.md): say which is which.
  fmt::print(
      "bounds           fabric lower bound: no scheduler on this fabric can beat it; Flux-model "
      "bound: no\n"
      "                 schedule with atomic messages and per-port tau can (gap = objective vs "
      "it)\n");
  // The search objective starts from the better of flux-greedy and slack-gap-fill.
  fmt::print(
      "stages           flux-greedy {} -> first incumbent + local search {} ({} moves) -> "
      "MILP {}\n",
      format_time(s.greedy_objective), format_time(s.search_objective), s.search_evaluations,
      format_time(s.objective));
}

// Another solver's solution of the emitted model, replayed like a schedule of flux.
schedulers::SchedulerResult replay_solution_file(const cosched::CoschedInstance& inst,
                                                 const cosched::FluxOptions& options,
                                                 const std::string& path) {
  schedulers::SchedulerResult run;
  run.scheduler = "flux";
  const auto placements = replay_solution(inst, options, read_file(path), path);
  run.placed = make_circuit_schedule(inst, placements, "flux");
  run.sim = replay(inst.workload, inst.fabric, *run.placed);
  if (!run.sim.ok) throw InputError(path, "", "a solution whose schedule passes the checker");
  return run;
}

void run_command(const CoschedArgs& a, const CLI::App& cmd) {
  const schedulers::WorkloadScheduler& scheduler = schedulers::workload_scheduler(a.scheduler);
  const schedulers::WorkloadScheduler& flux =
      schedulers::workload_scheduler("flux");  // the model and solution are its
  const OptionValues given = a.flags.values_for(scheduler);
  const cosched::FluxOptions options = a.flags.naming_flags([&] {
    return schedulers::flux_options(resolve_options(flux.options, a.flags.values_for(flux)));
  });
  const fabric::Fabric fabric = fabric::read_fabric(a.fabric);
  const cosched::CoschedInstance inst =
      cosched::make_instance(a.source.load_for(fabric), fabric, a.source.label());
  if (!a.emit_model.empty()) emit_model(inst, options, a.emit_model);
  if (!a.emit_model.empty() && a.out.empty() && a.summary.empty() && a.solution.empty()) return;
  schedulers::SchedulerResult run =
      a.solution.empty() ? a.flags.naming_flags([&] {
        schedulers::SchedulingInput in{inst.workload, inst.fabric, a.source.label(),
                                       &inst,         a.fabric,    progress()};
        in.keep_placed = true;  // written to --out in its exact times
        return run_scheduler(scheduler, in, given);
      })
                         : replay_solution_file(inst, options, a.solution);
  print_run(run);
  if (!a.out.empty())
    write_file_atomic(
        a.out, circuit_schedule_to_json(run.placed ? *run.placed
                                                   : to_circuit_schedule(run.sim.schedule,
                                                                         run.sim.trace.hops,
                                                                         inst.workload, fabric)));
  if (!a.summary.empty()) {
    auto j = run_summary(run, inst.workload, fabric, a.source.label(), a.fabric);
    j["scenario"]["messages"] = inst.message_count();
    j["provenance"] = command_provenance(cmd, a.source.input_files({a.fabric, a.solution}));
    write_file_atomic(a.summary, j.dump(1) + "\n");
  }
}

}  // namespace

void add_cosched_commands(CLI::App& app) {
  auto args = std::make_shared<CoschedArgs>();
  auto* cmd = app.add_subcommand("cosched",
                                 "Schedule a training-iteration DAG on OCSes with Flux (search, "
                                 "MILP, lower bound), flux-greedy or any registered scheduler");
  args->source.add_to(*cmd, false, true);
  cmd->add_option("--fabric", args->fabric, "flux.fabric/1 file")->required();
  cmd->add_option("--scheduler", args->scheduler,
                  fmt::format("one of: {}", fmt::join(scheduler_names(), ", ")))
      ->check(CLI::IsMember(scheduler_names()))
      ->capture_default_str();
  cmd->add_option("-o,--output,--out", args->out, "write the flux.circuit-schedule/1 here");
  cmd->add_option("--summary", args->summary, "write the flux.summary/1 here");
  cmd->add_option("--emit-model", args->emit_model,
                  "write flux's monolithic MILP as model.lp or model.mps (for Gurobi, HiGHS, ...)");
  cmd->add_option("--solution", args->solution,
                  "replay a solution of the emitted model ('name value' lines) instead of solving");
  args->flags.add_to(*cmd, all_workload_schedulers());
  cmd->callback([args, cmd] { run_command(*args, *cmd); });
}

}  // namespace flux::cli
