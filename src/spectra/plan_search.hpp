#pragma once
// Local search over a finished plan's switch assignment, its weights re-optimised by an LP.
//
// A decomposition's weights are chosen for the least total (lp_weights.hpp) before SCHEDULE and
// EQUALIZE place them; the plan's makespan is what counts. With the pieces' switches fixed, the
// best durations are an LP: minimise T s.t. every switch's pieces plus δ each fit in T, and the
// pieces of the permutations through every non-zero cover it (the presolved rows of
// lp_weights.hpp, in terms of the sum of each permutation's pieces). Its optimum is never above
// the plan's makespan (the plan's own durations are feasible).
//
// The search then drops pieces, the one with the least duration first: a dropped piece saves δ on
// its switch and the LP moves its work to the permutation's other pieces or to other
// permutations through the same entries (δ-aware merging of split pieces and of small
// permutations). A drop is kept when it lowers T, or keeps T and lowers the total load
// (Σ durations + δ per piece), which gives the next drops room; the scan restarts after each kept
// drop and stops at the first full pass without one or when the LP budget is spent.
//
// Cost: one LP per tried drop (rows: the presolved cover rows + s; columns: the pieces + 1),
// at most `max_lps` of them: a few ms each at n = 50.
#include "matrix/decomposition.hpp"
#include "matrix/switch_plan.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

struct PlanSearchOptions {
  double delta = 0.0;
  int max_lps = 48;  // LP solves in all, the first (fixed assignment) included
  int moves = 2;     // switches a piece is tried on besides being dropped
};

struct SearchedPlan {
  matrix::Decomposition dec;  // the permutations still played, weights = their pieces' sums
  matrix::SwitchPlan plan;    // over `dec`; covers D exactly (coverage repaired after the LP)
};

// The improved plan, or an empty `dec` when the LP failed. The caller compares makespans: the
// result is at most the input's up to the coverage repair (a few ulps).
[[nodiscard]] SearchedPlan search_plan(const Support& s, const matrix::Decomposition& dec,
                                       const matrix::SwitchPlan& plan,
                                       const PlanSearchOptions& opt);

}  // namespace flux::spectra
