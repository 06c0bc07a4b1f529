#pragma once
// DECOMPOSE (reference/spectra.md §2.1): cover every non-zero of D with exactly Δ weighted
// permutations, Δ = the largest number of non-zeros in a row or column.
//
// Greedy max-weight matching decomposition with a König-style edge-colouring constraint: at every
// step each row/column that still has the most uncovered non-zeros must take a new one (the 1e9
// costs of the reference are forbidden pairs here), the rest prefer large remaining demand; the
// smallest positive remaining demand on the matching is peeled off. Weights are then re-fitted by
// the LP of lp_weights.hpp or by the reference's stretch pass.
//
// Kernels: `sparse` (default) solves each step with completion_assignment on the support, warm-
// started with the previous step's column potentials: O(Δ · A) where A is one augmentation-bounded
// sparse assignment, in practice O(Δ · nnz · log n). `dense` builds the reference's n x n cost
// matrix with 1e9 entries and runs the O(n^3) Hungarian: O(Δ · n^3), kept for cross-checks.
// Both give optimal assignments at every step; only ties may be broken differently.
#include <vector>

#include "core/matrix.hpp"

namespace flux {

// perm[i] = output of input i (a full permutation; entries where D is zero are idle fillers).
using Permutation = std::vector<int>;

struct Decomposition {
  std::vector<Permutation> perms;
  std::vector<double> weights;  // durations, same time unit as D; sorted descending on return
};

enum class WeightMethod { lp, stretch };
enum class AssignmentKernel { sparse, dense };

struct DecomposeOptions {
  WeightMethod weights = WeightMethod::lp;
  AssignmentKernel kernel = AssignmentKernel::sparse;
};

// Invariant on return: sum_l weights[l] * P_l >= D elementwise (up to 1e-9 relative).
[[nodiscard]] Decomposition spectra_decompose(const Matrix& d, const DecomposeOptions& opt = {});

// The greedy permutations once, weighted both ways (LP first, then stretch). If the LP fails,
// `lp` carries the stretch weights.
struct DecomposeVariants {
  Decomposition lp;
  Decomposition stretch;
};
[[nodiscard]] DecomposeVariants spectra_decompose_variants(
    const Matrix& d, AssignmentKernel kernel = AssignmentKernel::sparse);

// Stable sort of (perm, weight) pairs by weight, descending.
void sort_by_weight(Decomposition& dec);

}  // namespace flux
