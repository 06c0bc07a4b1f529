// Every registered matrix algorithm through the shared verifier and the lower bound, on every
// generator and on edge cases (zero matrix, one entry, δ = 0, s = 1, s not a power of two).
#include "matrix_schedulers/registry.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "matrix/bounds.hpp"
#include "matrix/generators.hpp"
#include "matrix_baselines/test_support.hpp"

namespace flux::matrix_schedulers {
namespace {

std::vector<std::pair<std::string, Matrix>> instances() {
  std::vector<std::pair<std::string, Matrix>> out;
  for (const std::string& kind : matrix::generator_kinds()) {
    matrix::GeneratorOptions opt;
    opt.n = 32;
    opt.tokens = 128;
    out.emplace_back(kind, generate_matrix(kind, opt, 5));
  }
  out.emplace_back("zero", Matrix(5));
  Matrix one(4);
  one(2, 1) = 0.6;
  out.emplace_back("one-entry", one);
  out.emplace_back("constant", Matrix(6, 1.0 / 6));
  return out;
}

TEST(Registry, EveryAlgorithmIsVerifiedAndAboveTheLowerBound) {
  const auto list = instances();
  for (const MatrixAlgorithm& a : matrix_algorithms()) {
    for (const auto& [name, d] : list)
      for (int s : {1, 3, 4})
        for (double delta : {0.0, 0.03}) {
          SCOPED_TRACE(a.name + " on " + name + " s=" + std::to_string(s) +
                       " delta=" + std::to_string(delta));
          const matrix::MatrixProblem p{.time = d, .switches = s, .delta = delta};
          const matrix::MatrixResult r = a.run(p, {.seed = 3});
          EXPECT_EQ(r.schedule.algorithm, a.name);
          EXPECT_EQ(r.schedule.switches, s);
          testing::expect_verified(d, r);
          EXPECT_LE(matrix::lower_bound(d, s, delta), r.schedule.makespan * (1 + 1e-9) + 1e-12);
        }
  }
}

TEST(Registry, EveryAlgorithmRejectsBadProblems) {
  Matrix bad(3, 0.1);
  bad(1, 2) = -1.0;
  for (const MatrixAlgorithm& a : matrix_algorithms()) {
    SCOPED_TRACE(a.name);
    EXPECT_THROW((void)a.run({.time = bad, .switches = 2, .delta = 0.01}, {}), InputError);
    EXPECT_THROW((void)a.run({.time = Matrix(3, 0.1), .switches = 0, .delta = 0.01}, {}),
                 InputError);
    EXPECT_THROW((void)a.run({.time = Matrix(3, 0.1), .switches = 2, .delta = -1}, {}), InputError);
  }
}

TEST(Registry, RandomisedAlgorithmsAreDeterministicPerSeed) {
  matrix::GeneratorOptions opt;
  opt.n = 32;
  const Matrix d = generate_matrix("synthetic", opt, 2);
  const matrix::MatrixProblem p{.time = d, .switches = 4, .delta = 0.02};
  for (const char* name : {"baseline", "solstice", "baseline-per-port"}) {
    const MatrixAlgorithm* a = find_matrix_algorithm(name);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(a->run(p, {.seed = 7}).schedule.makespan, a->run(p, {.seed = 7}).schedule.makespan);
  }
  EXPECT_EQ(find_matrix_algorithm("no-such"), nullptr);
}

}  // namespace
}  // namespace flux::matrix_schedulers
