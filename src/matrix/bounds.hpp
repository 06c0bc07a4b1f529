#pragma once
// Makespan lower bounds for one demand matrix on s parallel all-stop OCSes (DESIGN §3,
// reference/spectra.md §3). Inputs are in time units: entry (i, j) = D[i][j] / rate.
//
// LB1 = max over lines p carrying demand of (L_p + delta * max(k_p, s)) / s, where L_p is the
//       line sum and k_p its number of non-zeros. Valid because port p's slots are spread over
//       the s switches, each slot serves one of p's entries and is preceded by delta on its
//       switch; a port using u < s switches is slower still.
// LB2 = the smallest T with T >= max_p (L_p + delta * max(sum_{e in p} m_e(T), s)) / s, where
//       m_e(T) = max(1, ceil(d_e / (T - delta))) (one slot lasts at most T - delta) and every
//       d_e <= s * (T - delta). The right side never increases with T, so the feasible T form
//       a ray [LB2, inf) and bisection finds it. LB2 >= LB1.
// An all-zero matrix has bound 0 (the empty schedule).
//
// Complexity: O(n^2) to summarise the lines, then O(n * s) per bisection step (only entries
// larger than LB1 - delta can need more than one slot, and a line has fewer than s of them),
// about 60 steps.
#include "core/matrix.hpp"

namespace flux {

struct MatrixBounds {
  double lb1 = 0.0;
  double lb2 = 0.0;
  double bound = 0.0;  // max(lb1, lb2): the one to report
};

[[nodiscard]] double lower_bound_lb1(const Matrix& time, int switches, double delta);
[[nodiscard]] double lower_bound_lb2(const Matrix& time, int switches, double delta);
[[nodiscard]] MatrixBounds matrix_lower_bounds(const Matrix& time, int switches, double delta);
[[nodiscard]] double lower_bound(const Matrix& time, int switches, double delta);

}  // namespace flux
