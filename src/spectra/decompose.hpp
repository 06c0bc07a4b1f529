#pragma once
// DECOMPOSE (reference/spectra.md §2.1): cover every non-zero of D with exactly Δ weighted
// permutations, Δ = the largest number of non-zeros in a row or column.
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

struct DecomposeOptions {
  WeightMethod weights = WeightMethod::lp;
};

// Invariant on return: sum_l weights[l] * P_l >= D elementwise (up to 1e-9 relative).
[[nodiscard]] Decomposition spectra_decompose(const Matrix& d, const DecomposeOptions& opt = {});

}  // namespace flux
