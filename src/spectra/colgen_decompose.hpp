#pragma once
// A decomposition with more than Δ permutations found by column generation, for supports where
// DECOMPOSE's Δ permutations overshoot the busiest line (random sparse: their LP-weighted total is
// ~1.5x the busiest line's load; wide-flow synthetic: ~1.2x).
//
// Master LP (milp/column_lp.hpp): minimise Σ w_l s.t. Σ_{l : P_l(i) = j} w_l >= D[i][j] for every
// non-zero, w >= 0, over the permutations found so far, starting from DECOMPOSE's. Its duals y
// (one per non-zero) price a new permutation P at 1 − Σ_{(i,j)∈P} y_ij, so the most negative
// reduced cost is a max-weight perfect matching on y: one sparse assignment
// (matching/completion_assignment.hpp, fillers between any row and column at 0). Without
// set-up costs this converges to the busiest line's load (Birkhoff–von Neumann) with many
// permutations; each one costs δ on a switch, so:
//   * generation stops when new permutations no longer pay their set-up: the reduced cost times
//     the most the permutation can carry (the smallest demand it serves at a positive dual) is
//     below δ for `patience` permutations in a row; or at `max_columns`, or at the LP optimum;
//   * a fixed-charge phase prices each permutation at 1 + δ / (its last weight) per unit of
//     weight (dynamic slope scaling), so lightly used permutations grow expensive and leave; each
//     round's set is re-weighted for the least total and its plan evaluated;
//   * then, from the plain LP again, the permutations are dropped lightest first in about `rounds`
//     batches, the LP re-solved warm after each;
//   * of all sets seen, the one whose LPT + improved-EQUALIZE plan is shortest is returned (that
//     plan's length accounts for δ per permutation, the splits and idle switches).
// The result feeds the same schedulers as any decomposition.
// Cost: one sparse assignment and a warm dual simplex per generated permutation (at most 4Δ + 8),
// then about 40 warm LP re-solves: tens of milliseconds of CPU at n = 50 (measured in
// docs/results/spectra.md §9); the LP has a row per non-zero, so it is for small supports.
#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

struct ColgenOptions {
  int switches = 1;
  double delta = 0.0;
  int max_columns = 0;      // total permutations, greedy ones included; 0 = 4Δ + 8
  int patience = 4;         // consecutive non-paying permutations before generation stops
  int per_round = 1;        // permutations priced per LP solve (2 is faster but ~1 % worse)
  int rounds = 24;          // LP re-solves of the dropping phase, about
  int scaling_rounds = 16;  // LP re-solves of the fixed-charge phase (it settles in ~8-16)
};

// Empty when the LP fails or generation finds nothing to add; otherwise covers D (weights sorted
// descending, no zero weights).
[[nodiscard]] matrix::Decomposition colgen_decompose(const Support& s,
                                                     const matrix::Decomposition& greedy,
                                                     const ColgenOptions& opt);

}  // namespace flux::spectra
