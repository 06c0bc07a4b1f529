#pragma once
// Critical-path local search for the Flux problem (an upper-bound improver beside the MILP).
// A schedule is a start order of the messages (a linear extension of the DAG) plus one OCS per
// message; `ListScheduler` turns it into the semi-active schedule. The search walks the critical
// path of the current schedule and, wherever a message m was delayed on a port by an earlier
// message b (PortBook's blocker link), tries the moves that can shorten that path — the
// job-shop "critical block" neighbourhood (Nowicki & Smutnicki) adapted to circuits and τ:
//   * m (with its ancestors listed between b and m) moved just before b;
//   * b (with its descendants listed between them) moved just after m;
//   * m or b moved to another OCS.
// A move is kept when it lowers (iteration time, Σ message starts) lexicographically — the second
// key lets the search cross plateaus where another chain is equally long. At a local optimum a
// few random critical moves are applied (iterated local search) and the walk restarts from the
// best schedule after `restart_after` fruitless kicks. Every state is a valid list schedule, so
// the result is always feasible and never worse than the start.
// Cost per evaluated move: one list-scheduling pass, O(V + E).
#include <cstdint>
#include <vector>

#include "cosched/conflicts.hpp"
#include "cosched/instance.hpp"

namespace flux::cosched {

struct LocalSearchOptions {
  double time_limit = 10.0;          // seconds of wall time
  std::int64_t max_evaluations = 0;  // list-scheduling passes; 0 = until the time limit
  std::uint64_t seed = 1;
  int kick_moves = 3;       // random critical moves per kick
  int restart_after = 20;   // fruitless kicks before returning to the best schedule
  int stall_restarts = 30;  // stop after this many restarts without a new best (0 = never)
  double target = 0.0;      // stop once the iteration time reaches it (a lower bound)
};

struct LocalSearchResult {
  std::vector<int> switch_of, order;  // best schedule found (start order)
  double iteration_time = 0.0;
  std::int64_t evaluations = 0;
};

// Improves the schedule given by `switch_of` and start `order` (a valid input for
// `schedule_in_order`; throws std::invalid_argument otherwise).
[[nodiscard]] LocalSearchResult critical_path_search(const CoschedInstance& inst,
                                                     const Ancestry& closure,
                                                     std::vector<int> switch_of,
                                                     std::vector<int> order,
                                                     const LocalSearchOptions& options);

}  // namespace flux::cosched
