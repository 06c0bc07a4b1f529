#pragma once
// The Flux scheduler, in stages that each only improve the incumbent:
//  1. first incumbent: the best of flux-greedy, slack-gap-fill (gap_fill.hpp; with both plans of
//     its critical messages, and where the closure fits also with home OCSes) and the per-phase
//     circuit plan (phase_plan.hpp): by itself on many-to-many collectives, and when enabled
//     also with pinned circuits;
//  2. the critical-path local search (local_search.hpp) from it and from flux-greedy on the static
//     circuit colouring (circuit_coloring.hpp) — side by side with two threads;
//  3. the MILP of flux_milp.hpp — over all messages at once when there are at most
//     `monolithic_limit` of them, otherwise as a rolling horizon:
//     windows of consecutive messages in the incumbent's start order are re-solved one after the
//     other with everything before the window fixed. The port states the fixed messages leave
//     (circuit held, busy-until) enter the window's model as its boundary; the messages after the
//     window keep their switches and order and are re-timed, and a window's solution is accepted
//     only when the whole schedule finishes earlier. Passes over the windows (offset by half a
//     window on odd passes) repeat while time is left and the last pass improved.
// Every stage stops as soon as the incumbent meets the lower bound (lower_bound.hpp): the
// schedule is then proven optimal. Stages 2 and 3 ask which messages precede which: the message
// closure answers, O(V·M/64) words; on instances where it would exceed `closure_memory_limit`
// (thousands of GPUs) a LazyAncestry (ancestry.hpp) searches the DAG per question instead — same
// answers, no message² memory — the report's note says so, and slack-gap-fill is first retried,
// after the bound, with home OCSes and a ladder of critical-slack thresholds (each local-search
// move is a list-scheduling pass over the whole DAG there, so the search makes few moves in its
// budget). Every schedule is left-shifted (re-timed in its own start order), which never delays a
// task, so the result is never worse than flux-greedy. It always carries a schedule and the solver
// report (status, objective, bound and its source, gap, time).
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "cosched/flux_milp.hpp"
#include "cosched/greedy.hpp"
#include "cosched/instance.hpp"
#include "cosched/placement.hpp"
#include "milp/backend.hpp"

namespace flux::cosched {

struct FluxOptions {
  milp::Limits solver;  // time_limit is the budget for all windows together
  FluxMilpOptions model;
  GreedyOptions greedy;
  double search_share = 0.8;  // share of the time limit for the critical-path local search
  std::uint64_t seed = 1;     // local search
  // Moves (list-scheduling passes) per local search, 0 = until its share of the time limit; with
  // solver.node_limit it makes a run independent of the machine's speed.
  std::int64_t search_moves = 0;
  int window_messages = 40;   // messages per rolling-horizon window
  int monolithic_limit = 80;  // one MILP over every message when there are at most this many
  bool aggregate = false;     // merge chained / sibling sends first (aggregation.hpp)
  // false: stop before the MILP (stage 3), e.g. to see what the first incumbent and the search
  // reach; a tiny time limit no longer does that, since it also cuts the first incumbents.
  bool milp = true;
  bool gap_fill = true;  // also try slack-gap-fill as the first incumbent
  // Also try the per-phase circuit plan (phase_plan.hpp). Off by default: on the Mixtral example
  // it wins only at τ = 1 ms on 2 OCSes, and elsewhere its construction time costs search budget
  // (docs/results/flux.md §5).
  bool phase_plan = false;
  // Try the plan (not pinned; as is and with late messages split off) by itself when a
  // collective is many-to-many (many_to_many): MoE all-to-alls, where it is the best first
  // incumbent at τ = 1 ms and at 4 OCSes from 10 µs; it costs ≈ 0.2–0.5 s on the 4-layer Mixtral
  // case, and rings and point-to-point workloads never pay for it.
  bool auto_phase_plan = true;
  // Above this many bytes for the message closure (MessageClosure::memory_bytes) the local search
  // and the MILP ask the DAG per question instead (LazyAncestry) and the slack ladder runs.
  double closure_memory_limit = 4.0 * (1 << 30);
};

// Throws InputError (field = the option) for a non-positive or non-finite time limit, threads < 1,
// a negative gap, a window of fewer than 1 message or a negative monolithic limit.
void validate(const FluxOptions& options);

struct SolverReport {
  std::string backend;
  milp::Status status = milp::Status::not_solved;
  double objective = 0.0;  // iteration time of the returned schedule, seconds
  double bound = 0.0;      // proven lower bound on the optimal iteration time, seconds
  double gap = 0.0;        // (objective − bound) / objective
  double seconds = 0.0;    // wall time including the greedy and model building
  double greedy_objective = 0.0;
  std::string note;               // why a stage was skipped, if one was
  double search_objective = 0.0;  // after the local search
  std::int64_t search_evaluations = 0;
  int windows = 0, windows_improved = 0, passes = 0;  // windows solved, accepted
  int columns = 0, binaries = 0, rows = 0;            // summed over windows
  FluxModelStats pairs;                               // summed over windows
  std::string bound_source;  // "milp" or describe(flux_lower_bound): what attains `bound`
};

struct FluxResult {
  std::vector<Placement> placements;
  SolverReport report;
};

// `progress` gets one stage per step above (first incumbent, lower bound, local search, each MILP
// pass window by window) with the incumbent, the bound and the gap as they improve.
[[nodiscard]] FluxResult flux_schedule(const CoschedInstance& inst, const FluxOptions& options,
                                       Progress& progress = no_progress());

// The monolithic model exactly as flux_schedule builds it (same warm start, bounds and scale),
// for --emit-model; and the replay of another solver's solution of it (--solution). The replay
// throws InputError when the values do not fit the model.
[[nodiscard]] FluxModel monolithic_model(const CoschedInstance& inst, const FluxOptions& options);
[[nodiscard]] std::vector<Placement> replay_solution(const CoschedInstance& inst,
                                                     const FluxOptions& options,
                                                     const std::string& solution_text,
                                                     const std::string& label);

}  // namespace flux::cosched
