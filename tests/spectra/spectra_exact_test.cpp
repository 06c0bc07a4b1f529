// Spectra against the exact optimum (matrix/exact_schedule.hpp, CBC) on tiny instances: both
// schedules are valid, never below the optimum, and `spectra` never above `spectra-ref`.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/rng.hpp"
#include "matrix/exact_schedule.hpp"
#include "spectra/spectra.hpp"
#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

Matrix random_sparse(int n, double density, Rng& rng) {
  Matrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (rng.uniform() < density) d(i, j) = 1.0 - rng.uniform();
  return d.scaled(1.0 / std::max(1e-300, d.max_line_sum()));
}

TEST(SpectraExact, NeverBelowTheOptimumOnTinyInstances) {
  Rng rng(17);
  double worst_ref = 1.0, worst_imp = 1.0;
  for (int trial = 0; trial < 8; ++trial) {
    const int n = trial < 6 ? 3 : 4;  // n = 4 has 24 permutations per switch: keep it to s = 2
    const int s = n == 4 ? 2 : 2 + trial % 2;
    const double delta = trial < 4 ? 0.02 : 0.1;
    const matrix::MatrixProblem p = testing::problem(random_sparse(n, 0.6, rng), s, delta);
    const matrix::ExactResult opt = exact_matrix_schedule(p);
    if (opt.status != matrix::ExactStatus::optimal) continue;
    const matrix::MatrixResult ref = spectra_reference(p);
    const matrix::MatrixResult imp = spectra_improved(p);
    testing::expect_valid_schedule(p, ref);
    testing::expect_valid_schedule(p, imp);
    EXPECT_GE(ref.schedule.makespan, opt.makespan - 1e-7);
    EXPECT_GE(imp.schedule.makespan, opt.makespan - 1e-7);
    EXPECT_LE(imp.schedule.makespan, ref.schedule.makespan + 1e-12);
    worst_ref = std::max(worst_ref, ref.schedule.makespan / opt.makespan);
    worst_imp = std::max(worst_imp, imp.schedule.makespan / opt.makespan);
  }
  std::printf("tiny instances: worst spectra-ref/OPT %.3f, spectra/OPT %.3f\n", worst_ref,
              worst_imp);
}

}  // namespace
}  // namespace flux::spectra
