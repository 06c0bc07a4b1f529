#pragma once
// A decomposition with more than Δ permutations for supports where DECOMPOSE's Δ permutations
// overshoot: DECOMPOSE must cover every entry in exactly Δ steps, so on irregular supports (random
// sparse) it pairs one line's large entries with other lines' small ones and its LP-weighted
// permutations last far longer in total than the busiest line needs (1.4-1.5x on random sparse
// n = 50). More permutations bring the total down but cost δ each.
//
// Pool: the greedy permutations plus those of the threshold decomposition
// (bottleneck_decompose.hpp) run on D rounded up to a few geometric levels (on the raw,
// all-distinct values it would peel one value per step). The LP of lp_weights.hpp weighs the
// whole pool; then the lightest permutations are dropped in rounds and the rest re-weighted,
// and the pool size whose LPT + improved-EQUALIZE plan is shortest is kept. Dropping stops when
// the LP has no solution (an entry lost its last permutation).
// Cost: one threshold decomposition of the rounded matrix (given up beyond 200 permutations, as
// on wide-flow synthetic supports) and about 24 LPs over a pool of up to ~200 permutations: tens
// of milliseconds at n = 50, against ~3 ms for the rest of `spectra`.
#include "core/matrix.hpp"
#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

struct PoolOptions {
  int switches = 1;
  double delta = 0.0;
  int levels = 8;      // geometric levels of the rounding between min and max entry
  int max_pool = 200;  // the threshold decomposition gives up beyond this
  int rounds = 24;     // LP solves of the dropping phase, about
};

// Empty when the pool adds nothing to `greedy` or the LP fails; otherwise covers D (weights
// sorted descending, no zero weights).
[[nodiscard]] matrix::Decomposition pool_decompose(const Support& s,
                                                   const matrix::Decomposition& greedy,
                                                   const PoolOptions& opt);

// The support of D with every non-zero rounded up to the nearest of `levels` geometric levels
// between its smallest and largest non-zero (never below the entry): the same entries, so
// make_support of the rounded matrix, without the n x n matrix.
[[nodiscard]] Support round_up_geometric(const Support& s, int levels);

}  // namespace flux::spectra
