#include "cosched/flux_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"
#include "cosched/aggregation.hpp"
#include "cosched/circuit_coloring.hpp"
#include "cosched/conflicts.hpp"
#include "cosched/gap_fill.hpp"
#include "cosched/local_search.hpp"
#include "cosched/lower_bound.hpp"
#include "cosched/phase_plan.hpp"
#include "milp/model_io.hpp"

namespace flux::cosched {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<int> switches_of(const std::vector<Placement>& pl) {
  std::vector<int> s(pl.size());
  for (std::size_t m = 0; m < pl.size(); ++m) s[m] = pl[m].sw;
  return s;
}

struct Incumbent {
  std::vector<Placement> placements;
  std::vector<int> order;  // start order: a linear extension that reproduces `placements`
  double time = 0.0;
};

Incumbent incumbent_of(const CoschedInstance& inst, const std::vector<Placement>& placements) {
  Incumbent inc;
  inc.order = start_order(inst, placements);
  inc.placements = *schedule_in_order(inst, switches_of(placements), inc.order);
  inc.time = iteration_time(inst, inc.placements);
  return inc;
}

Incumbent greedy_incumbent(const CoschedInstance& inst, const GreedyOptions& options) {
  return incumbent_of(inst, flux_greedy(inst, options));
}

// slack-gap-fill's plan after predecessors with each message on its circuit's home OCS unless
// another OCS saves more than 2 or 8 τ: greedy earliest fits put the two messages of a ring step
// that are ready together on both OCSes, and every next step then sets its circuit up again. On
// the 1,024-GPU GPT-3 case at 2 OCS that was 50 set-ups on the critical path of the
// data-parallel tail at τ = 100 µs; with home OCSes one is left there (479.8 → 473.6 ms, and
// 511.5 → 503.9 ms at 1 ms).
constexpr double kHomeSlacks[] = {2.0, 8.0};

GapFillOptions home_plan(double home_slack, const Deadline& deadline) {
  return {.critical_plan = CriticalPlan::after_predecessors,
          .home_slack = home_slack,
          .deadline = deadline};
}

bool fits_closure(const CoschedInstance& inst, const FluxOptions& options) {
  return MessageClosure::memory_bytes(inst) <= options.closure_memory_limit;
}

// The other first-incumbent candidates replace flux-greedy's schedule `inc` where better:
// slack-gap-fill with both plans of its critical messages and, where the closure fits, with home
// OCSes (options.gap_fill), the phase plan with and without late directions split off
// (options.phase_plan, or by itself on many-to-many collectives) and the pinned phase plan
// (options.phase_plan). Returns what each candidate reached, for the log.
// A candidate is skipped (and named in `skipped`) when less time than flux-greedy took
// (`greedy_seconds`: each candidate is at least one such pass over the DAG) is left before
// `deadline`, and a slack-gap-fill also when the deadline stops it.
std::string adopt_candidates(const CoschedInstance& inst, const FluxOptions& options,
                             const Deadline& deadline, double greedy_seconds, Incumbent& inc,
                             std::string& skipped) {
  std::string tried = fmt::format("flux-greedy {}", format_time(inc.time));
  const auto consider = [&](std::string_view name, const auto& make) {
    const std::vector<Placement> placements =
        deadline.leaves(greedy_seconds) ? make() : std::vector<Placement>{};
    if (placements.empty()) {
      tried += fmt::format(", {} skipped (time limit)", name);
      skipped += fmt::format("{}{}", skipped.empty() ? "" : ", ", name);
      return;
    }
    Incumbent candidate = incumbent_of(inst, placements);
    tried += fmt::format(", {} {}", name, format_time(candidate.time));
    if (candidate.time < inc.time) inc = std::move(candidate);
  };
  if (options.gap_fill) {
    consider("slack-gap-fill", [&] { return slack_gap_fill(inst, {.deadline = deadline}); });
    consider("slack-gap-fill after predecessors", [&] {
      return slack_gap_fill(
          inst, {.critical_plan = CriticalPlan::after_predecessors, .deadline = deadline});
    });
    // Where the closure does not fit, the slack ladder tries these after the bound (they would
    // take its time on the largest instances).
    if (fits_closure(inst, options))
      for (const double home : kHomeSlacks)
        consider(fmt::format("slack-gap-fill after predecessors, home OCS {:g} tau", home),
                 [&] { return slack_gap_fill(inst, home_plan(home, deadline)); });
  }
  if (options.phase_plan || (options.auto_phase_plan && many_to_many(inst))) {
    consider("phase plan", [&] { return phase_plan(inst); });
    // More re-plans pay off for the split plan (phase_plan.hpp, budget_passes); on the Mixtral
    // cases they never improved the unsplit one, so it keeps its default passes.
    consider("phase plan split",
             [&] { return phase_plan(inst, {.passes = budget_passes(inst), .split_late = 0.5}); });
  }
  if (options.phase_plan)
    consider("phase plan pinned", [&] { return phase_plan(inst, {.dedicate = true}); });
  return tried;
}

// Where the closure does not fit, each local-search move costs a list-scheduling pass over
// hundreds of thousands of tasks, so the search gets few moves; slack-gap-fill is cheaper per try
// and moves more. The ladder tries its plan with home OCSes first (the first incumbents skip them
// there, so that the bound comes first), then a ladder of critical-slack thresholds, each with
// both plans of the critical messages: a higher threshold plans more near-critical messages
// first. On the 1,024-GPU GPT-3 case at 2 OCS home OCSes win at τ = 100 µs and 1 ms, and 1e-3 at
// heads at τ = 10 µs. Tries the rungs until the time limit; returns what each reached ("home N"
// home OCSes, "a" after predecessors). A rung is not started unless the time it would take,
// judged by the longest rung so far, is left.
std::string adopt_slack_ladder(const CoschedInstance& inst, const FluxOptions& options,
                               const std::function<double()>& elapsed, const Deadline& deadline,
                               Incumbent& inc) {
  std::string tried;
  double longest = 0.0;
  // Runs one rung unless the time it would take, judged by the longest so far, is not left;
  // false once the time limit stops the ladder.
  const auto rung = [&](const std::string& name, const GapFillOptions& fill) {
    const double begin = elapsed();
    if (begin + longest >= options.solver.time_limit) return false;
    const auto placements = slack_gap_fill(inst, fill);
    if (placements.empty()) return false;  // the time limit passed during the rung
    Incumbent candidate = incumbent_of(inst, placements);
    tried += fmt::format("{}{} {}", tried.empty() ? "" : ", ", name, format_time(candidate.time));
    if (candidate.time < inc.time) inc = std::move(candidate);
    longest = std::max(longest, elapsed() - begin);
    return true;
  };
  for (const double home : kHomeSlacks)
    if (!rung(fmt::format("home {:g}", home), home_plan(home, deadline))) return tried;
  for (const double slack : {1e-3, 1e-2, 3e-2, 0.1, 0.3})
    for (const CriticalPlan plan : {CriticalPlan::at_heads, CriticalPlan::after_predecessors}) {
      const std::string name =
          fmt::format("{}{}", plan == CriticalPlan::after_predecessors ? "a" : "", slack);
      if (!rung(name, {.critical_slack = slack, .critical_plan = plan, .deadline = deadline}))
        return tried;
    }
  return tried;
}

// Messages order[from, to) form the window; those before it stay fixed, the rest are unplaced.
std::vector<Placement> window_view(const Incumbent& inc, std::size_t to) {
  std::vector<Placement> pl(inc.placements.size());
  for (std::size_t k = 0; k < to; ++k) pl[inc.order[k]] = inc.placements[inc.order[k]];
  return pl;
}

struct WindowSolve {
  FluxModel model;
  milp::Result result;
  bool accepted = false;
};

// Solves window [from, to) of the incumbent and adopts the solution if the schedule improves.
WindowSolve solve_window(const CoschedInstance& inst, const Ancestry& closure,
                         const FluxOptions& options, milp::Limits solver, Incumbent& inc,
                         std::size_t from, std::size_t to) {
  std::vector<char> window(inst.message_count(), 0);
  for (std::size_t k = from; k < to; ++k) window[inc.order[k]] = 1;
  const auto placed = window_view(inc, to);
  FluxMilpOptions mo = options.model;
  const bool whole = from == 0 && to == inc.order.size();
  if (!whole) mo.start_weight = 1e-3 / static_cast<double>(to - from);
  WindowSolve w{build_flux_model(inst, closure, window, placed, mo), {}, false};
  w.result = milp::CbcBackend().solve(w.model.milp, solver, encode_solution(w.model, inst, placed));
  if (w.result.values.empty()) return w;
  const WindowDecision d = decode_solution(w.model, inst, w.result.values);
  std::vector<int> order(inc.order.begin(), inc.order.begin() + static_cast<long>(from));
  order.insert(order.end(), d.order.begin(), d.order.end());
  order.insert(order.end(), inc.order.begin() + static_cast<long>(to), inc.order.end());
  auto sw = switches_of(inc.placements);
  for (int m : d.order) sw[m] = d.switch_of[m];
  const auto pl = schedule_in_order(inst, sw, order);
  if (!pl) return w;
  const double t = iteration_time(inst, *pl);
  if (t < inc.time * (1 - 1e-12)) {
    inc = {*pl, start_order(inst, *pl), t};
    w.accepted = true;
  }
  return w;
}

// The critical-path local search from two starts — the incumbent (flux-greedy or slack-gap-fill),
// and flux-greedy on the static circuit colouring (local_search.hpp, circuit_coloring.hpp); it
// stops early on reaching the lower bound. With two or more threads the two
// searches run side by side, each for the whole search budget; with one, one after the other
// with half of it each.
// `closure` is shared by both searches; without it (it would not fit in memory) each search asks
// its own LazyAncestry. `budget`: seconds of search in all.
Incumbent local_search(const CoschedInstance& inst, const MessageClosure* closure,
                       const FluxOptions& options, double budget, Incumbent incumbent,
                       double lower_bound, std::int64_t& evaluations) {
  GreedyOptions colored = options.greedy;
  colored.switch_of = circuit_coloring(inst);
  Incumbent best = std::move(incumbent);
  const std::vector<Incumbent> starts{best, greedy_incumbent(inst, colored)};
  const bool parallel = options.solver.threads >= 2;
  LocalSearchOptions lo;
  lo.time_limit = budget / (parallel ? 1 : 2);
  lo.max_evaluations = options.search_moves;
  lo.seed = options.seed;
  lo.target = lower_bound;
  std::vector<LocalSearchResult> found(starts.size());
  auto search = [&](std::size_t k) {
    std::optional<LazyAncestry> own;
    const Ancestry& ancestry =
        closure != nullptr ? static_cast<const Ancestry&>(*closure) : own.emplace(inst);
    found[k] = critical_path_search(inst, ancestry, switches_of(starts[k].placements),
                                    starts[k].order, lo);
  };
  if (parallel) {
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < starts.size(); ++k) threads.emplace_back(search, k);
    for (auto& t : threads) t.join();
  } else {
    for (std::size_t k = 0; k < starts.size(); ++k) search(k);
  }
  for (const LocalSearchResult& ls : found) {
    evaluations += ls.evaluations;
    if (ls.iteration_time < best.time)
      best = incumbent_of(inst, *schedule_in_order(inst, ls.switch_of, ls.order));
  }
  return best;
}

// What a solver log shows after each step: "incumbent 1.2ms, bound 1.1ms, gap 8.33%".
std::string standing(double incumbent, double bound) {
  return fmt::format("incumbent {}, bound {}, gap {:.2f}%", format_time(incumbent),
                     format_time(bound),
                     incumbent > 0 ? 100 * std::max(0.0, incumbent - bound) / incumbent : 0.0);
}

void add_stats(SolverReport& r, const FluxModel& m) {
  r.columns += m.milp.columns();
  r.binaries += m.milp.integers();
  r.rows += static_cast<int>(m.milp.rows.size());
  r.pairs.messages += m.stats.messages;
  r.pairs.tasks += m.stats.tasks;
  r.pairs.pairs_ordered += m.stats.pairs_ordered;
  r.pairs.pairs_free += m.stats.pairs_free;
  r.pairs.pairs_pruned += m.stats.pairs_pruned;
  r.pairs.pairs_separated += m.stats.pairs_separated;
  r.pairs.pruned_to_ordered += m.stats.pruned_to_ordered;
}

}  // namespace

void validate(const FluxOptions& o) {
  if (!(o.solver.time_limit > 0.0) || !std::isfinite(o.solver.time_limit))
    throw InputError("", "time_limit", "a positive, finite number of seconds");
  if (o.solver.threads < 1) throw InputError("", "threads", "at least 1 thread");
  if (!(o.solver.gap >= 0.0) || !std::isfinite(o.solver.gap))
    throw InputError("", "gap", "a non-negative relative gap");
  if (!(o.search_share >= 0.0 && o.search_share <= 1.0))
    throw InputError("", "search_share", "a share of the time limit in [0, 1]");
  if (o.solver.node_limit < 0) throw InputError("", "node_limit", "a non-negative node count");
  if (o.search_moves < 0) throw InputError("", "search_moves", "a non-negative move count");
  if (o.window_messages < 1) throw InputError("", "window", "at least 1 message per window");
  if (o.monolithic_limit < 0)
    throw InputError("", "monolithic_limit", "a non-negative message count");
}

// Schedules the aggregated instance and expands it; the bound falls back to flux_lower_bound of
// the original instance because aggregation restricts the search.
FluxResult aggregated_schedule(const CoschedInstance& inst, const FluxOptions& options,
                               const Aggregation& agg, Progress& progress) {
  const CoschedInstance small = make_instance(agg.workload, inst.fabric);
  FluxOptions plain = options;
  plain.aggregate = false;
  FluxResult r = flux_schedule(small, plain, progress);
  const auto expanded = expand_placements(inst, small, agg, r.placements);
  r.placements = *schedule_in_order(inst, switches_of(expanded), start_order(inst, expanded));
  r.report.objective = iteration_time(inst, r.placements);
  const FluxBound lb = flux_lower_bound(inst);
  r.report.bound = std::min(r.report.objective, lb.value);
  r.report.bound_source = describe(lb);
  r.report.gap = r.report.objective > 0 ? 1 - r.report.bound / r.report.objective : 0.0;
  if (r.report.status == milp::Status::optimal) r.report.status = milp::Status::feasible;
  return r;
}

// Rolling-horizon (or, for small instances, monolithic) MILP passes over the incumbent until the
// time limit, the bound, or a pass without improvement. Returns the MILP's bound of the whole
// model (0 when it was not solved whole).
double milp_passes(const CoschedInstance& inst, const Ancestry& closure, const FluxOptions& options,
                   const std::function<double()>& elapsed, const std::function<bool()>& proven,
                   double lower_bound, Progress& progress, Incumbent& inc, SolverReport& r) {
  const std::size_t nm = inc.order.size();
  const bool whole = static_cast<int>(nm) <= options.monolithic_limit;
  const std::size_t size = whole ? std::max<std::size_t>(nm, 1) : options.window_messages;
  double bound = 0.0;
  bool improved = true;
  for (int pass = 0; improved && !proven() && elapsed() < options.solver.time_limit; ++pass) {
    improved = false;
    ++r.passes;
    const std::size_t offset = pass % 2 == 1 ? size / 2 : 0;
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (std::size_t from = 0; from < nm; from = spans.back().second)
      spans.emplace_back(from, std::min(nm, from == 0 && offset > 0 ? offset : from + size));
    ProgressStage stage(progress, fmt::format("MILP pass {} windows", pass + 1),
                        static_cast<double>(spans.size()));
    for (std::size_t k = 0; k < spans.size() && elapsed() < options.solver.time_limit; ++k) {
      milp::Limits so = options.solver;
      so.time_limit =
          (options.solver.time_limit - elapsed()) / static_cast<double>(spans.size() - k);
      const WindowSolve w =
          solve_window(inst, closure, options, so, inc, spans[k].first, spans[k].second);
      add_stats(r, w.model);
      r.backend = w.result.backend;
      ++r.windows;
      r.windows_improved += w.accepted ? 1 : 0;
      improved = improved || w.accepted;
      r.status = w.result.status;
      bound = w.result.bound * w.model.time_unit;
      stage.update(static_cast<double>(k + 1),
                   standing(inc.time, std::max(lower_bound, whole ? bound : 0.0)));
    }
    if (whole) break;
  }
  if (!whole && r.status == milp::Status::optimal) r.status = milp::Status::feasible;
  return whole ? bound : 0.0;
}

FluxResult flux_schedule(const CoschedInstance& inst, const FluxOptions& options,
                         Progress& progress) {
  validate(options);
  if (options.aggregate) {
    const Aggregation agg = aggregate_messages(inst);
    if (agg.merged > 0) return aggregated_schedule(inst, options, agg, progress);
  }
  const auto t0 = Clock::now();
  const std::function<double()> elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  // The time limit bounds the whole run: flux-greedy always runs (it is the fallback); the other
  // first incumbents (each started only if the time flux-greedy took is left), the bound's
  // families, the search and the MILP stop at the limit, in that order. At 1,024 GPUs a
  // slack-gap-fill improves on flux-greedy by 20 % where the bound's families beyond the critical
  // path only prove it: the incumbents come first.
  const Deadline deadline(t0 + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(options.solver.time_limit)));
  FluxResult out;
  SolverReport& r = out.report;
  ProgressStage first(progress, "first incumbent");
  Incumbent inc = greedy_incumbent(inst, options.greedy);
  r.greedy_objective = inc.time;
  std::string skipped;
  const std::string tried = adopt_candidates(inst, options, deadline, elapsed(), inc, skipped);
  first.finish(fmt::format("incumbent {} ({})", format_time(inc.time), tried));
  ProgressStage bounding(progress, "lower bound");
  const FluxBound lb = flux_lower_bound(inst, {.deadline = deadline});
  bounding.finish(standing(inc.time, lb.value));
  if (!skipped.empty()) r.note = fmt::format("time limit: first incumbents skipped: {}", skipped);
  if (!lb.complete)
    r.note += fmt::format("{}time limit: the lower bound stopped early (valid, maybe weaker)",
                          r.note.empty() ? "" : "; ");
  const std::function<bool()> proven = [&] { return inc.time <= lb.value * (1 + 1e-9); };
  r.search_objective = inc.time;
  double milp_bound = 0.0;
  if (!proven()) {
    // Without room for the closure, precedence is asked of the DAG itself (LazyAncestry).
    std::optional<MessageClosure> closure;
    if (fits_closure(inst, options))
      closure.emplace(inst);
    else
      r.note += fmt::format(
          "{}precedence searched in the DAG: the message closure would need {} (limit {})",
          r.note.empty() ? "" : "; ", format_bytes(MessageClosure::memory_bytes(inst)),
          format_bytes(options.closure_memory_limit));
    if (!closure && options.gap_fill) {
      ProgressStage ladder(progress, "slack ladder");
      const std::string tried = adopt_slack_ladder(inst, options, elapsed, deadline, inc);
      ladder.finish(fmt::format("{} ({})", standing(inc.time, lb.value), tried));
    }
    // Past the limit the search is skipped (its second start alone is a flux-greedy run),
    // unless a move count was asked for (a run that ends at the same point on any machine).
    if (options.search_share > 0.0 && (options.search_moves > 0 || !deadline.passed())) {
      ProgressStage search(progress, "local search");
      // The ladder's time comes out of the search's share (nothing else precedes it).
      const double share = options.search_share * options.solver.time_limit;
      inc = local_search(inst, closure ? &*closure : nullptr, options,
                         closure ? share : std::max(0.0, share - elapsed()), std::move(inc),
                         lb.value, r.search_evaluations);
      search.finish(
          fmt::format("{} ({} moves)", standing(inc.time, lb.value), r.search_evaluations));
    }
    r.search_objective = inc.time;
    if (options.milp && (closure || !deadline.passed())) {  // else no pass would start
      std::optional<LazyAncestry> lazy;
      const Ancestry& ancestry =
          closure ? static_cast<const Ancestry&>(*closure) : lazy.emplace(inst);
      milp_bound =
          milp_passes(inst, ancestry, options, elapsed, proven, lb.value, progress, inc, r);
    }
  }
  out.placements = inc.placements;
  r.objective = inc.time;
  if (r.status != milp::Status::optimal && r.status != milp::Status::feasible)
    r.status = milp::Status::feasible;  // the first incumbent stands
  r.bound = std::min(r.objective, std::max(lb.value, milp_bound));
  r.bound_source = milp_bound > lb.value ? "milp" : describe(lb);
  r.gap = r.objective > 0.0 ? (r.objective - r.bound) / r.objective : 0.0;
  if (r.gap <= 1e-9) r.status = milp::Status::optimal;  // the bound proves the schedule optimal
  r.seconds = elapsed();
  return out;
}

FluxModel monolithic_model(const CoschedInstance& inst, const FluxOptions& options) {
  validate(options);
  if (!fits_closure(inst, options))
    throw InputError("", "closure_memory_limit",
                     fmt::format("an instance whose message closure fits in {} (it needs {})",
                                 format_bytes(options.closure_memory_limit),
                                 format_bytes(MessageClosure::memory_bytes(inst))));
  const MessageClosure closure(inst);
  Incumbent inc = greedy_incumbent(inst, options.greedy);
  std::string skipped;
  adopt_candidates(inst, options, Deadline(), 0.0, inc, skipped);
  return build_flux_model(inst, closure, std::vector<char>(inst.message_count(), 1), inc.placements,
                          options.model);
}

std::vector<Placement> replay_solution(const CoschedInstance& inst, const FluxOptions& options,
                                       const std::string& solution_text, const std::string& label) {
  const FluxModel model = monolithic_model(inst, options);
  const auto values = milp::read_solution(model.milp, solution_text, label);
  const WindowDecision d = decode_solution(model, inst, values);
  const auto pl = schedule_in_order(inst, d.switch_of, d.order);
  if (!pl) throw InputError(label, "", "start times that respect the workload's dependencies");
  return *pl;
}

}  // namespace flux::cosched
