#include "schedulers/flux_schedulers.hpp"

#include <optional>
#include <vector>

#include "cosched/placement.hpp"

namespace flux::schedulers {
namespace {

OptionSpec lookahead_option() {
  return {.key = "lookahead",
          .type = OptionType::boolean,
          .default_value = true,
          .help = "flux-greedy's circuit-reuse look-ahead"};
}

// In the order of the summary's echo.
OptionTable flux_option_table() {
  const cosched::FluxOptions d;
  return {
      {.key = "time_limit",
       .type = OptionType::time,
       .unit = "s",
       .default_value = 60.0,
       .min = 0.0,
       .min_open = true,
       .help = "time budget of the whole flux run (flux-greedy always runs; the other first "
               "incumbents, the lower bound, the local search and the MILP stop at it)"},
      {.key = "threads",
       .type = OptionType::integer,
       .default_value = std::int64_t{d.solver.threads},
       .min = 1,
       .help = "threads: CBC's, and 2+ runs both local searches at once"},
      {.key = "gap",
       .type = OptionType::real,
       .default_value = d.solver.gap,
       .min = 0,
       .help = "relative MIP gap at which CBC stops"},
      {.key = "node_limit",
       .type = OptionType::integer,
       .unit = "nodes",
       .default_value = d.solver.node_limit,
       .min = 0,
       .help = "CBC branch-and-bound nodes per MILP solve (0 = no limit); with --search-moves "
               "and --threads 1, a run that ends at the same point on any machine"},
      {.key = "search_moves",
       .type = OptionType::integer,
       .unit = "moves",
       .default_value = d.search_moves,
       .min = 0,
       .help = "moves per critical-path local search (0 = until its share of the time limit)"},
      {.key = "search_share",
       .type = OptionType::real,
       .default_value = d.search_share,
       .min = 0,
       .max = 1,
       .help = "share of the time limit for the critical-path local search (0 = none)"},
      {.key = "seed",
       .type = OptionType::integer,
       .default_value = static_cast<std::int64_t>(d.seed),
       .min = 0,
       .help = "seed of the local search"},
      {.key = "window",
       .type = OptionType::integer,
       .unit = "messages",
       .default_value = std::int64_t{d.window_messages},
       .min = 1,
       .help = "messages per rolling-horizon window"},
      {.key = "monolithic_limit",
       .type = OptionType::integer,
       .unit = "messages",
       .default_value = std::int64_t{d.monolithic_limit},
       .min = 0,
       .help = "one MILP over all messages when there are at most this many"},
      {.key = "prune",
       .type = OptionType::boolean,
       .default_value = d.model.prune,
       .help = "time-window pruning (bounds [ES, H])"},
      {.key = "symmetry_breaking",
       .type = OptionType::boolean,
       .default_value = d.model.symmetry_breaking,
       .help = "symmetry breaking across OCSes",
       .flag = "--no-symmetry"},
      {.key = "forbid_reuse",
       .type = OptionType::boolean,
       .default_value = d.model.forbid_reuse,
       .help = "ablation: charge τ even between messages of one circuit",
       .flag = "--no-reuse"},
      lookahead_option(),
      {.key = "aggregate",
       .type = OptionType::boolean,
       .default_value = d.aggregate,
       .help = "merge chained and sibling sends before solving"},
      {.key = "gap_fill",
       .type = OptionType::boolean,
       .default_value = d.gap_fill,
       .help = "also try slack-gap-fill as the first incumbent (not only flux-greedy)"},
      {.key = "phase_plan",
       .type = OptionType::boolean,
       .default_value = d.phase_plan,
       .help = "also try the per-collective circuit plan (rounds of circuits per collective, "
               "realised by list scheduling) as the first incumbent"},
      {.key = "auto_phase_plan",
       .type = OptionType::boolean,
       .default_value = d.auto_phase_plan,
       .help = "try the per-collective circuit plan (not pinned) by itself when a collective is "
               "many-to-many (some GPU has more partners in it than ports, and more than two)"},
      {.key = "closure_memory_limit",
       .type = OptionType::bytes,
       .unit = "B",
       .default_value = d.closure_memory_limit,
       .min = 0,
       .help = "search the DAG per precedence question (no message closure) above this",
       .flag = "--closure-memory"},
      {.key = "solver_log",
       .type = OptionType::boolean,
       .default_value = d.solver.log,
       .help = "CBC's log on stderr"},
  };
}

// Runs `plan` (instance -> placements, filling `out.solver` if it reports) on the instance the
// caller built, or on one built here and freed before the hops are filed: at 1,024 GPUs the
// instance (≈ 0.9 GB) and the hops being filed (≈ 1 GB) were the peak of flux-greedy.
template <class Plan>
SchedulerOutput planned(const SchedulingInput& in, const std::string& name, Plan plan) {
  SchedulerOutput out;
  out.without_engine = true;
  std::vector<cosched::Placement> pl;
  {
    std::optional<cosched::CoschedInstance> own;
    const cosched::CoschedInstance& inst =
        in.instance != nullptr
            ? *in.instance
            : own.emplace(cosched::make_instance_over(in.workload, in.fabric, in.label));
    pl = plan(inst, out);
    out.run.schedule = timed_schedule_without_hops(inst, pl, name);
    if (in.keep_placed) out.placed = make_circuit_schedule(inst, pl, name);
  }
  add_hops(out.run.schedule, in.workload, in.fabric, pl);
  return out;
}

}  // namespace

cosched::FluxOptions flux_options(const OptionValues& v) {
  cosched::FluxOptions o;
  const auto get = [&](const char* key, auto& field) {
    if (!v.has(key)) return;
    using T = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<T, bool>)
      field = v.boolean(key);
    else if constexpr (std::is_integral_v<T>)
      field = static_cast<T>(v.integer(key));
    else
      field = v.real(key);
  };
  get("time_limit", o.solver.time_limit);
  get("threads", o.solver.threads);
  get("gap", o.solver.gap);
  get("node_limit", o.solver.node_limit);
  get("search_moves", o.search_moves);
  get("search_share", o.search_share);
  get("seed", o.seed);
  get("window", o.window_messages);
  get("monolithic_limit", o.monolithic_limit);
  get("prune", o.model.prune);
  get("symmetry_breaking", o.model.symmetry_breaking);
  get("forbid_reuse", o.model.forbid_reuse);
  get("lookahead", o.greedy.lookahead);
  get("aggregate", o.aggregate);
  get("gap_fill", o.gap_fill);
  get("phase_plan", o.phase_plan);
  get("auto_phase_plan", o.auto_phase_plan);
  get("closure_memory_limit", o.closure_memory_limit);
  get("solver_log", o.solver.log);
  validate(o);
  return o;
}

WorkloadScheduler flux_scheduler() {
  return {"flux",
          "Flux: first incumbent, critical-path local search, rolling-horizon MILP, lower bound",
          flux_option_table(), [](const OptionValues& v) -> ConfiguredScheduler {
            const cosched::FluxOptions o = flux_options(v);
            return [o](const SchedulingInput& in) {
              return planned(in, "flux",
                             [&](const cosched::CoschedInstance& inst, SchedulerOutput& out) {
                               cosched::FluxResult r = flux_schedule(inst, o, in.progress);
                               out.solver = std::move(r.report);
                               return std::move(r.placements);
                             });
            };
          }};
}

WorkloadScheduler flux_greedy_scheduler() {
  return {"flux-greedy",
          "flux-greedy: list scheduling of the DAG with circuit-reuse look-ahead",
          {lookahead_option()},
          [](const OptionValues& v) -> ConfiguredScheduler {
            const cosched::FluxOptions o = flux_options(v);
            return [o](const SchedulingInput& in) {
              return planned(in, "flux-greedy",
                             [&](const cosched::CoschedInstance& inst, SchedulerOutput&) {
                               return flux_greedy(inst, o.greedy);
                             });
            };
          }};
}

nlohmann::ordered_json solver_json(const cosched::SolverReport& s) {
  return {{"backend", s.backend},
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

}  // namespace flux::schedulers
