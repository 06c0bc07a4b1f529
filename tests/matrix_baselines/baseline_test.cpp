#include "matrix_baselines/baseline.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "matrix_baselines/naive.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

TEST(Baseline, EclipseVariantAndNaiveVerify) {
  matrix::GeneratorOptions opt;
  opt.n = 32;
  const Matrix d = generate_matrix("synthetic", opt, 4);
  for (int s : {3, 4}) {
    const matrix::MatrixProblem p{.time = d, .switches = s, .delta = 0.02};
    const matrix::MatrixResult e = less_baseline(p, {.seed = 1}, eclipse_part_decomposer());
    EXPECT_EQ(e.schedule.algorithm, "baseline-eclipse");
    testing::expect_verified(d, e);
    const matrix::MatrixResult nv = naive_schedule(p, eclipse_part_decomposer());
    testing::expect_verified(d, nv);
    // Every switch runs the same K permutations of D/s back to back.
    EXPECT_EQ(static_cast<int>(nv.schedule.slots.size()), s * nv.permutations);
  }
}

// The baseline decomposes each LESS part with the decomposer it is given (once per part, an
// all-zero part not at all) and names its result after it.
TEST(Baseline, DecomposesEachPartWithTheGivenDecomposer) {
  const Matrix d = testing::random_sparse(12, 0.4, 7);
  const matrix::MatrixProblem p{.time = d, .switches = 3, .delta = 0.01};
  int calls = 0;
  const PartDecomposer eclipse = eclipse_part_decomposer();
  const PartDecomposer counting{"counting", [&](const Matrix& m, double delta) {
                                  ++calls;
                                  return eclipse.decompose(m, delta);
                                }};
  const matrix::MatrixResult r = less_baseline(p, {.seed = 5}, counting);
  EXPECT_EQ(calls, p.switches);
  EXPECT_EQ(r.schedule.algorithm, "baseline-counting");
  testing::expect_verified(d, r);
  EXPECT_EQ(r.schedule.makespan,
            less_baseline(p, {.seed = 5}, eclipse_part_decomposer()).schedule.makespan);
}

}  // namespace
}  // namespace flux::matrix_baselines
