#pragma once
// LP re-weighting of a fixed set of permutations (the weights of the Spectra paper's plots,
// `SPECTRA_MILP` in its code):
//   minimise sum_l w_l  s.t.  sum_{l : P_l(i) = j} w_l >= D[i][j] for every non-zero, w >= 0.
// Solved as a pure LP by the milp module (Clp's dual simplex). Entries covered by the same set of
// permutations give the same constraint, so only the largest demand per distinct set is kept: on
// DECOMPOSE output most sets are singletons and the LP shrinks from nnz rows to a few hundred.
// After the solve, any constraint violated within the LP solver's tolerance is repaired by raising
// one weight, so coverage holds exactly (up to one floating-point addition).
#include <vector>

#include "spectra/decompose.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

// Returns the weights, or an empty vector if the LP could not be solved (then the caller keeps its
// own weights). Every non-zero of `s` must be covered by at least one permutation.
[[nodiscard]] std::vector<double> lp_min_total_weights(
    const Support& s, const std::vector<matrix::Permutation>& perms);

// `dec` re-weighted by lp_min_total_weights and sorted descending; with `drop_zeros` the
// permutations the LP left at weight 0 are removed. False, `dec` unchanged, if the LP failed.
bool reweigh_for_least_total(const Support& s, matrix::Decomposition& dec, bool drop_zeros);

// Coverage repair: for every non-zero left uncovered by `w`, add the shortfall to the
// first permutation that covers it. Returns the number of repairs.
int repair_coverage(const Support& s, const std::vector<matrix::Permutation>& perms,
                    std::vector<double>& w);

// The covering constraints on the permutations' total weights, presolved: an entry served by one
// permutation only is a lower bound `lb` on its weight; entries served by several give one row
// per distinct set of permutations (its largest demand), kept only if not already met at `lb`.
// Any w >= lb meeting `rows` covers D. Shared by the LP above and by the plan search
// (plan_search.hpp), whose variables are pieces of these weights.
struct CoverRows {
  std::vector<double> lb;                                 // [permutation]
  std::vector<std::pair<std::vector<int>, double>> rows;  // (ascending permutation ids, demand)
};
[[nodiscard]] CoverRows cover_rows(const Support& s, const std::vector<matrix::Permutation>& perms);

}  // namespace flux::spectra
