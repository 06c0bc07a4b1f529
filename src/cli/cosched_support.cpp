#include "cli/cosched_support.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/units.hpp"

namespace flux::cli {

void FluxFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--time-limit", time_limit,
                 "time budget of flux (local search + MILP), e.g. 60s, 500ms")
      ->capture_default_str();
  cmd.add_option("--threads", threads, "threads: CBC's, and 2+ runs both local searches at once")
      ->capture_default_str();
  cmd.add_option("--gap", gap, "relative MIP gap at which CBC stops")->capture_default_str();
  cmd.add_option("--search-share", search_share,
                 "share of the time limit for the critical-path local search (0 = none)")
      ->capture_default_str();
  cmd.add_option("--seed", seed, "seed of the local search")->capture_default_str();
  cmd.add_option("--closure-memory", closure_memory,
                 "skip the local search and MILP when the message closure needs more than this")
      ->capture_default_str();
  cmd.add_option("--window", window, "messages per rolling-horizon window")->capture_default_str();
  cmd.add_option("--monolithic-limit", monolithic_limit,
                 "one MILP over all messages when there are at most this many")
      ->capture_default_str();
  cmd.add_flag("--no-prune", no_prune, "no time-window pruning (bounds [ES, H])");
  cmd.add_flag("--no-symmetry", no_symmetry, "no symmetry breaking across OCSes");
  cmd.add_flag("--no-reuse", no_reuse, "ablation: charge τ even between messages of one circuit");
  cmd.add_flag("--no-lookahead", no_lookahead, "flux-greedy without the circuit-reuse look-ahead");
  cmd.add_flag("--aggregate", aggregate, "merge chained and sibling sends before solving");
  cmd.add_flag("--no-gap-fill", no_gap_fill, "start from flux-greedy only, not slack-gap-fill");
  cmd.add_flag("--solver-log", solver_log, "CBC's log on stderr");
}

FluxOptions FluxFlags::options() const {
  FluxOptions o;
  o.solver.time_limit = parse_time(time_limit, "--time-limit");
  o.solver.threads = threads;
  o.solver.gap = gap;
  o.solver.log = solver_log;
  o.search_share = search_share;
  o.closure_memory_limit = parse_bytes(closure_memory, "--closure-memory");
  o.seed = seed;
  o.window_messages = window;
  o.monolithic_limit = monolithic_limit;
  o.model.prune = !no_prune;
  o.model.symmetry_breaking = !no_symmetry;
  o.model.forbid_reuse = no_reuse;
  o.greedy.lookahead = !no_lookahead;
  o.aggregate = aggregate;
  o.gap_fill = !no_gap_fill;
  validate(o);
  return o;
}

CoschedRun replay_placements(const CoschedInstance& inst, const std::vector<Placement>& pl,
                             const std::string& scheduler) {
  CoschedRun run;
  run.scheduler = scheduler;
  run.schedule = make_circuit_schedule(inst, pl, scheduler);
  run.sim = replay(inst.workload, inst.fabric, run.schedule);
  if (!run.sim.ok)
    throw std::runtime_error(scheduler + " schedule failed replay: " +
                             (run.sim.violations.empty() ? "" : run.sim.violations.front()));
  return run;
}

CoschedRun run_cosched(const CoschedInstance& inst, const std::string& scheduler,
                       const FluxOptions& options) {
  if (scheduler == "flux-greedy")
    return replay_placements(inst, flux_greedy(inst, options.greedy), scheduler);
  if (scheduler != "flux") throw InputError("", "--scheduler", "flux or flux-greedy");
  FluxResult r = flux_schedule(inst, options);
  CoschedRun run = replay_placements(inst, r.placements, scheduler);
  run.has_solver = true;
  run.solver = r.report;
  return run;
}

bool is_cosched_scheduler(const std::string& name) {
  return name == "flux" || name == "flux-greedy";
}

SimResult simulate_cosched(const Workload& w, const Fabric& f, const std::string& scheduler,
                           const FluxOptions& options, const std::string& workload_file) {
  const CoschedInstance inst = make_instance(w, f, workload_file);
  CoschedRun run = run_cosched(inst, scheduler, options);
  if (run.has_solver)
    fmt::print("solver: {} {}, objective {}, bound {}, gap {:.3g}%, {:.2f} s\n", run.solver.backend,
               to_string(run.solver.status), format_time(run.solver.objective),
               format_time(run.solver.bound), 100 * run.solver.gap, run.solver.seconds);
  return std::move(run.sim);
}

nlohmann::ordered_json summary_json(const CoschedInstance& inst, const CoschedRun& run,
                                    const FluxOptions& options, const std::string& workload_file,
                                    const std::string& fabric_file) {
  RunContext ctx;
  ctx.workload_file = workload_file;
  ctx.fabric_file = fabric_file;
  ctx.scheduler = run.scheduler;
  nlohmann::ordered_json j = summary_document(run.sim.metrics, inst.workload, inst.fabric, ctx);
  j["scenario"]["messages"] = inst.message_count();
  j["scheduler"]["options"] = {{"time_limit", options.solver.time_limit},
                               {"threads", options.solver.threads},
                               {"gap", options.solver.gap},
                               {"search_share", options.search_share},
                               {"seed", options.seed},
                               {"window", options.window_messages},
                               {"monolithic_limit", options.monolithic_limit},
                               {"prune", options.model.prune},
                               {"symmetry_breaking", options.model.symmetry_breaking},
                               {"forbid_reuse", options.model.forbid_reuse},
                               {"lookahead", options.greedy.lookahead},
                               {"aggregate", options.aggregate},
                               {"gap_fill", options.gap_fill}};
  if (run.has_solver) {
    const SolverReport& s = run.solver;
    j["solver"] = {{"backend", s.backend},
                   {"status", to_string(s.status)},
                   {"objective", s.objective},
                   {"bound", s.bound},
                   {"note", s.note},
                   {"bound_source", s.bound_source},
                   {"gap", s.gap},
                   {"seconds", s.seconds},
                   {"windows", s.windows},
                   {"windows_improved", s.windows_improved},
                   {"passes", s.passes},
                   {"greedy_objective", s.greedy_objective},
                   {"search_objective", s.search_objective},
                   {"search_evaluations", s.search_evaluations},
                   {"columns", s.columns},
                   {"binaries", s.binaries},
                   {"rows", s.rows},
                   {"pairs_ordered", s.pairs.pairs_ordered},
                   {"pairs_free", s.pairs.pairs_free},
                   {"pairs_pruned", s.pairs.pairs_pruned},
                   {"pairs_separated", s.pairs.pairs_separated},
                   {"pruned_to_ordered", s.pairs.pruned_to_ordered}};
  }
  return j;
}

}  // namespace flux::cli
