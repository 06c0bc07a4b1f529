#pragma once
// Makespan lower bounds for one demand matrix on s parallel all-stop OCSes. Inputs are in time
// units: entry (i, j) = D[i][j] / rate.
//
// LB1 = max over lines p carrying demand of (L_p + delta * max(k_p, s)) / s, where L_p is the
//       line sum and k_p its number of non-zeros. Valid because port p's slots are spread over
//       the s switches, each slot serves one of p's entries and is preceded by delta on its
//       switch; a port using u < s switches is slower still.
// LB2 = the smallest T with T >= max_p (L_p + delta * max(sum_{e in p} m_e(T), s)) / s, where
//       m_e(T) = max(1, ceil(d_e / (T - delta))) (one slot lasts at most T - delta) and every
//       d_e <= s * (T - delta). The right side never increases with T, so the feasible T form
//       a ray [LB2, inf) and bisection finds it. LB2 >= LB1.
// LB3 = the smallest T with T >= (L_max + delta * max(N(T), s)) / s and every d_e <= s (T - delta),
//       where L_max is the largest line sum and N(T) = max_p sum_{e in p} m_e(T) the largest slot
//       count of any line: one line's load priced with another line's slot count.
//       Proof. Take any valid schedule with makespan T; let N be its number of slots over all
//       switches and W the sum of their durations. (a) A slot is a permutation, so it serves at
//       most one entry of a line; entry e needs slots totalling d_e, each at most T - delta long,
//       so at least m_e(T) slots contain e, and slots containing different entries of line p are
//       different: N >= sum_{e in p} m_e(T) for every p, i.e. N >= N(T). (b) The slots serving
//       line p last at least L_p in total, so W >= L_p for every p: W >= L_max. (c) Let u be the
//       number of switches with at least one slot, u <= min(N, s). Their loads sum to
//       delta N + W and each is <= T, so u T >= delta N + W. If N >= s this gives
//       T >= (W + delta N) / s; if N < s, T >= (W + delta N) / N = W / N + delta >= (W + delta s) /
//       s. With (a) and (b): T >= (L_max + delta max(N(T), s)) / s. An entry is served at most T -
//       delta per switch, hence d_e <= s (T - delta). Both right sides are non-increasing in T, so
//       the feasible T again form a ray and bisection finds LB3. For every line p, L_p <= L_max and
//       its slot count is <= N(T), so LB3's test implies LB2's: LB3 >= LB2 >= LB1. It is strictly
//       larger when the busiest line and the line with the most entries differ (random sparse
//       matrices: the busiest port has average degree, another one many small entries).
// LB4 = the largest over lines p of the least T at which p's entries pack on the s switches when
//       each switch holding a piece of an entry pays delta for it (matrix/line_packing.hpp: bin
//       packing with item fragmentation, with its proof). Searched from LB2 upward and raised only
//       to a T the packing test proves infeasible, so it is valid whatever the test misses; >=
//       LB2 (which counts each entry's pieces on its own). A per-line argument, valid per-port as
//       well. Larger than LB3 when the busiest lines cannot share their entries evenly among the
//       switches: many switches (s = 16) and large delta.
// An all-zero matrix has bound 0 (the empty schedule).
//
// Complexity: O(n^2) to summarise the lines, then O(n * s) per bisection step (only entries
// larger than LB1 - delta can need more than one slot, and a line has fewer than s of them),
// about 60 steps each for LB2 and LB3. LB4: per line, a bracket by best fit alone (O(k log s)
// per step for its k entries), then, above the bound so far, bisection with the full test (the
// LP only where both greedy packings fail), within a budget of knapsack cells for the matrix.
#include "core/matrix.hpp"
#include "matrix/schedule.hpp"

namespace flux::matrix {

struct MatrixBounds {
  double lb1 = 0.0;
  double lb2 = 0.0;
  double lb3 = 0.0;
  double lb4 = 0.0;
  double bound = 0.0;     // max(lb1, lb2, lb4): valid under every reconfiguration model
  double all_stop = 0.0;  // max(bound, lb3): valid for all-stop schedules
  [[nodiscard]] double for_model(Reconfiguration r) const {
    return r == Reconfiguration::all_stop ? all_stop : bound;
  }
};

[[nodiscard]] double lower_bound_lb1(const Matrix& time, int switches, double delta);
[[nodiscard]] double lower_bound_lb2(const Matrix& time, int switches, double delta);
[[nodiscard]] double lower_bound_lb3(const Matrix& time, int switches, double delta);
[[nodiscard]] MatrixBounds matrix_lower_bounds(const Matrix& time, int switches, double delta);
// max(LB1, LB2, LB4), valid under every reconfiguration model.
[[nodiscard]] double lower_bound(const Matrix& time, int switches, double delta);

}  // namespace flux::matrix
