#include "cosched/flux_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "cosched/conflicts.hpp"

namespace flux {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<int> switches_of(const std::vector<Placement>& pl) {
  std::vector<int> s(pl.size());
  for (std::size_t m = 0; m < pl.size(); ++m) s[m] = pl[m].sw;
  return s;
}

// The window's messages (placed in `pl`) in start order, appended to the earlier windows' order.
std::vector<int> extend_order(const CoschedInstance& inst, const std::vector<int>& before,
                              const std::vector<char>& window, const std::vector<Placement>& pl) {
  std::vector<int> order = before;
  for (int m : start_order(inst, pl))
    if (window[m]) order.push_back(m);
  return order;
}

// Windows: consecutive messages in topological order (each window's ancestors come earlier).
std::vector<std::vector<char>> make_windows(const CoschedInstance& inst, int size) {
  const int nm = inst.message_count();
  if (size <= 0 || size > nm) size = std::max(nm, 1);
  std::vector<std::vector<char>> windows;
  int k = 0;
  for (int v : inst.topo) {
    const int m = inst.message_of[v];
    if (m < 0) continue;
    if (k++ % size == 0) windows.emplace_back(nm, 0);
    windows.back()[m] = 1;
  }
  return windows;
}

struct Window {
  FluxModel model;
  std::vector<Placement> warm;  // left-shifted greedy placement (fixed + window)
  std::vector<int> warm_order;
};

Window prepare_window(const CoschedInstance& inst, const MessageClosure& closure,
                      const FluxOptions& options, const std::vector<Placement>& placed,
                      const std::vector<int>& order, const std::vector<char>& window) {
  const auto greedy = flux_greedy(inst, options.greedy, placed, window);
  Window w;
  w.warm_order = extend_order(inst, order, window, greedy);
  w.warm = *schedule_in_order(inst, switches_of(greedy), w.warm_order);
  w.model = build_flux_model(inst, closure, window, w.warm, options.model);
  return w;
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
    throw InputError("", "--time-limit", "a positive, finite number of seconds");
  if (o.solver.threads < 1) throw InputError("", "--threads", "at least 1 thread");
  if (!(o.solver.gap >= 0.0) || !std::isfinite(o.solver.gap))
    throw InputError("", "--gap", "a non-negative relative gap");
  if (o.window_messages < 0) throw InputError("", "--window", "a non-negative message count");
}

FluxResult flux_schedule(const CoschedInstance& inst, const FluxOptions& options) {
  validate(options);
  const auto t0 = Clock::now();
  const MessageClosure closure(inst);
  const auto windows = make_windows(inst, options.window_messages);
  FluxResult out;
  out.placements.assign(inst.message_count(), Placement{});
  std::vector<int> order;
  SolverReport& r = out.report;
  r.status = MilpStatus::optimal;
  double cbc_bound = 0.0;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const auto& window = windows[k];
    Window w = prepare_window(inst, closure, options, out.placements, order, window);
    add_stats(r, w.model);
    MilpOptions so = options.solver;
    const double used = std::chrono::duration<double>(Clock::now() - t0).count();
    so.time_limit = std::max(
        0.05, (options.solver.time_limit - used) / static_cast<double>(windows.size() - k));
    const MilpResult res = solve_cbc(w.model.milp, so, encode_solution(w.model, inst, w.warm));
    r.backend = res.backend;
    if (res.status != MilpStatus::optimal)
      r.status = res.status == MilpStatus::feasible && r.status != MilpStatus::no_solution
                     ? MilpStatus::feasible
                     : res.status;
    cbc_bound = res.bound * w.model.time_unit;
    out.placements = w.warm;
    order = w.warm_order;
    if (!res.values.empty()) {
      const WindowDecision d = decode_solution(w.model, inst, res.values);
      auto sw = switches_of(w.warm);
      for (int m : d.order) sw[m] = d.switch_of[m];
      std::vector<int> milp_order = order;
      milp_order.resize(milp_order.size() - d.order.size());
      milp_order.insert(milp_order.end(), d.order.begin(), d.order.end());
      const auto pl = schedule_in_order(inst, sw, milp_order);
      const double tol = 1e-9 * window_objective(w.model, inst, w.warm);
      if (pl &&
          window_objective(w.model, inst, *pl) < window_objective(w.model, inst, w.warm) - tol) {
        out.placements = *pl;
        order = std::move(milp_order);
        ++r.windows_improved;
      }
    }
    if (k == 0) r.greedy_objective = iteration_time(inst, w.warm);
  }
  r.windows = static_cast<int>(windows.size());
  if (r.windows > 1) {
    r.status = r.status == MilpStatus::optimal ? MilpStatus::feasible : r.status;
    r.greedy_objective = iteration_time(inst, flux_greedy(inst, options.greedy));
  }
  r.objective = iteration_time(inst, out.placements);
  r.bound = std::min(r.objective, std::max(inst.critical_path, r.windows == 1 ? cbc_bound : 0.0));
  r.gap = r.objective > 0.0 ? (r.objective - r.bound) / r.objective : 0.0;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

FluxModel monolithic_model(const CoschedInstance& inst, const FluxOptions& options) {
  validate(options);
  const MessageClosure closure(inst);
  const std::vector<char> all(inst.message_count(), 1);
  return prepare_window(inst, closure, options, std::vector<Placement>(inst.message_count()), {},
                        all)
      .model;
}

std::vector<Placement> replay_solution(const CoschedInstance& inst, const FluxOptions& options,
                                       const std::string& solution_text, const std::string& label) {
  const FluxModel model = monolithic_model(inst, options);
  const auto values = read_solution(model.milp, solution_text, label);
  const WindowDecision d = decode_solution(model, inst, values);
  const auto pl = schedule_in_order(inst, d.switch_of, d.order);
  if (!pl) throw InputError(label, "", "start times that respect the workload's dependencies");
  return *pl;
}

}  // namespace flux
