#pragma once
// The Spectra paper's baseline: LESS-split D into s parts with equal
// shares of every line sum (less_split.hpp), decompose each part on its own (part_decomposer.hpp)
// and play each part serially on its own switch — no balancing across switches. Makespan =
// max over parts of (sum of weights + δ · permutations). Randomised through the split: seeded by
// MatrixRunOptions::seed.
// Time: the split plus s decompositions of matrices ~s times sparser than D.
#include <vector>

#include "matrix/algorithm.hpp"
#include "matrix_baselines/part_decomposer.hpp"

namespace flux::matrix_baselines {

// The s = p.switches parts of the split, part k for switch k (in whole bytes for byte demand).
[[nodiscard]] std::vector<Matrix> baseline_parts(const matrix::MatrixProblem& p,
                                                 const matrix::MatrixRunOptions& opt);

// Named `baseline` (Spectra's decomposition per part) or `baseline-eclipse`.
[[nodiscard]] matrix::MatrixResult less_baseline(const matrix::MatrixProblem& p,
                                                 const matrix::MatrixRunOptions& opt,
                                                 const PartDecomposer& decomposer);

// The second half of less_baseline: each part decomposed and played serially on its switch.
[[nodiscard]] matrix::MatrixResult play_parts(const std::vector<Matrix>& parts,
                                              const matrix::MatrixProblem& p,
                                              const PartDecomposer& decomposer);

}  // namespace flux::matrix_baselines
