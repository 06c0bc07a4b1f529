#pragma once
// Shared checks for Spectra tests: every schedule goes through the project's verifier.
#include <gtest/gtest.h>

#include "matrix/algorithm.hpp"
#include "matrix/generators.hpp"
#include "matrix/verify.hpp"
#include "spectra/decompose.hpp"

namespace flux::testing {

// The hard random-sparse family of the matrix bench: n = 50, density 0.2.
inline Matrix sparse50(std::uint64_t seed) {
  matrix::GeneratorOptions o;
  o.n = 50;
  o.density = 0.2;
  return generate_matrix("sparse", o, seed);
}

inline matrix::MatrixProblem problem(const Matrix& d, int s, double delta) {
  matrix::MatrixProblem p;
  p.time = d;
  p.switches = s;
  p.delta = delta;
  return p;
}

inline void expect_valid_schedule(const matrix::MatrixProblem& p, const matrix::MatrixResult& r) {
  const matrix::VerifyReport report = verify_matrix_schedule(p.time, r.schedule);
  EXPECT_TRUE(report.valid()) << report.to_text();
  for (const matrix::Slot& slot : r.schedule.slots) {
    EXPECT_EQ(static_cast<int>(slot.perm.size()), p.time.n());
    EXPECT_GE(slot.sw, 0);
    EXPECT_LT(slot.sw, p.switches);
  }
}

// Every permutation is a full permutation and sum_l w_l P_l >= D.
inline void expect_covering_decomposition(const Matrix& d, const matrix::Decomposition& dec) {
  const int n = d.n();
  Matrix served(n);
  ASSERT_EQ(dec.perms.size(), dec.weights.size());
  for (std::size_t l = 0; l < dec.perms.size(); ++l) {
    std::vector<char> used(static_cast<std::size_t>(n), 0);
    ASSERT_EQ(static_cast<int>(dec.perms[l].size()), n);
    for (int i = 0; i < n; ++i) {
      const int j = dec.perms[l][static_cast<std::size_t>(i)];
      ASSERT_TRUE(j >= 0 && j < n && !used[static_cast<std::size_t>(j)]);
      used[static_cast<std::size_t>(j)] = 1;
      served(i, j) += dec.weights[l];
    }
    EXPECT_GE(dec.weights[l], 0.0);
    if (l > 0) {
      EXPECT_GE(dec.weights[l - 1], dec.weights[l]);
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) EXPECT_GE(served(i, j), d(i, j) - 1e-9) << i << "," << j;
}

}  // namespace flux::testing
