#pragma once
// The Flux scheduler: flux-greedy as warm start and fallback, then the MILP of flux_milp.hpp —
// over all messages at once, or as a rolling horizon over windows of messages in topological
// order for DAGs too large to solve whole (reference/flux.md §3.7 item 6). Each window is solved
// after the earlier ones are fixed; the port states they leave (circuit held, busy-until) carry
// into the next window's model, and a window whose solve does not beat its warm start keeps the
// greedy placement, so every window — and the whole schedule — stays feasible. Every solution is
// left-shifted (re-timed in its own start order), which never makes it later.
// The result always carries a schedule and the solver report (status, objective, bound, gap, time).
#include <string>
#include <vector>

#include "cosched/flux_milp.hpp"
#include "cosched/greedy.hpp"
#include "cosched/instance.hpp"
#include "cosched/milp_solver.hpp"
#include "cosched/placement.hpp"

namespace flux {

struct FluxOptions {
  MilpOptions solver;  // time_limit is the budget for all windows together
  FluxMilpOptions model;
  GreedyOptions greedy;
  int window_messages = 0;  // 0 = one MILP over every message; else messages per window
};

// Throws InputError (field = the option) for a non-positive or non-finite time limit, threads < 1,
// a negative gap or a negative window size.
void validate(const FluxOptions& options);

struct SolverReport {
  std::string backend;
  MilpStatus status = MilpStatus::not_solved;
  double objective = 0.0;  // iteration time of the returned schedule, seconds
  double bound = 0.0;      // proven lower bound on the optimal iteration time, seconds
  double gap = 0.0;        // (objective − bound) / objective
  double seconds = 0.0;    // wall time including the greedy and model building
  double greedy_objective = 0.0;
  int windows = 0, windows_improved = 0;
  int columns = 0, binaries = 0, rows = 0;  // summed over windows
  FluxModelStats pairs;                     // summed over windows
};

struct FluxResult {
  std::vector<Placement> placements;
  SolverReport report;
};

[[nodiscard]] FluxResult flux_schedule(const CoschedInstance& inst, const FluxOptions& options);

// The monolithic model exactly as flux_schedule builds it (same warm start, bounds and scale),
// for --emit-model; and the replay of another solver's solution of it (--solution). The replay
// throws InputError when the values do not fit the model.
[[nodiscard]] FluxModel monolithic_model(const CoschedInstance& inst, const FluxOptions& options);
[[nodiscard]] std::vector<Placement> replay_solution(const CoschedInstance& inst,
                                                     const FluxOptions& options,
                                                     const std::string& solution_text,
                                                     const std::string& label);

}  // namespace flux
