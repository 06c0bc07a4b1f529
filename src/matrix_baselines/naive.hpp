#pragma once
// `naive` (a comparator in the Spectra authors' code): every switch gets D/s, decomposed once
// (Spectra's decomposition, LP weights) and played serially; all switches run the same list, so the
// makespan is sum of weights of D/s + δ · K. The reference to show what splitting D without
// sparsifying it costs: every switch pays δ for every permutation of D.
// Time: one decomposition of D.
#include "matrix/algorithm.hpp"
#include "matrix_baselines/part_decomposer.hpp"

namespace flux::matrix_baselines {

[[nodiscard]] matrix::MatrixResult naive_schedule(const matrix::MatrixProblem& p,
                                                  const PartDecomposer& decomposer);

}  // namespace flux::matrix_baselines
