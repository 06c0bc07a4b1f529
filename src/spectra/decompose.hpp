#pragma once
// DECOMPOSE (the Spectra paper's first step): cover every non-zero of D with exactly Δ weighted
// permutations, Δ = the largest number of non-zeros in a row or column.
//
// Greedy max-weight matching decomposition with a König-style edge-colouring constraint: at every
// step each row/column that still has the most uncovered non-zeros must take a new one (the 1e9
// costs of the reference are forbidden pairs here), the rest prefer large remaining demand; the
// smallest positive remaining demand on the matching is peeled off. Weights are then re-fitted by
// the LP of lp_weights.hpp or by the reference's stretch pass.
//
// Kernels: `sparse` (default) solves each step with completion_assignment on the support only
// (fillers implicit, 1e9 pairs forbidden): greedy + augmenting row reduction match most rows,
// Dijkstra searches the rest. Its buffers live across the steps (CompletionWorkspace), so a
// step allocates nothing but the permutation it returns; `sparse_fresh` is the same solver
// built anew at every step (the earlier kernel, kept for benchmarks; identical output). Worst case
// O(Δ · n · nnz · log n); measured on the synthetic benchmark (n = 100, Δ = 16) ~17 searches of ~15
// scanned rows per step. Warm-starting the column potentials from the previous step was tried and
// rejected: the previous matching's entries are exactly the ones that just became forbidden, and it
// cost 60 % more scans at n = 100 (10 % fewer at n = 1024). `dense` builds the reference's n x n
// cost matrix with 1e9 entries and runs the O(n^3) Hungarian: O(Δ · n^3), kept for cross-checks and
// benchmarks. Both give optimal assignments at every step; only ties may be broken differently.
#include <vector>

#include "core/matrix.hpp"
#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux {

enum class WeightMethod { lp, stretch };
enum class AssignmentKernel { sparse, sparse_fresh, dense };

struct DecomposeOptions {
  WeightMethod weights = WeightMethod::lp;
  AssignmentKernel kernel = AssignmentKernel::sparse;
};

// Invariant on return: sum_l weights[l] * P_l >= D elementwise (up to 1e-9 relative); weights
// sorted descending.
[[nodiscard]] Decomposition spectra_decompose(const Matrix& d, const DecomposeOptions& opt = {});
// The same on a support already built from D (make_support(D)).
[[nodiscard]] Decomposition spectra_decompose(const Support& s, const DecomposeOptions& opt = {});

}  // namespace flux
