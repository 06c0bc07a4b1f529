#pragma once
// Helpers shared by the matrix-baseline tests: small seeded instances and the verifier check.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/matrix.hpp"
#include "core/rng.hpp"
#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"
#include "matrix/verify.hpp"

namespace flux::testing {

// Sum of k random permutations with weights in [0.1, 1).
inline Matrix permutation_sum(int n, int k, std::uint64_t seed) {
  Rng rng(seed);
  Matrix d(n);
  for (int l = 0; l < k; ++l) {
    const double w = rng.uniform(0.1, 1.0);
    const std::vector<int> p = rng.permutation(n);
    for (int i = 0; i < n; ++i) d(i, p[static_cast<std::size_t>(i)]) += w;
  }
  return d;
}

// Each entry non-zero with probability `density`, values in (0, 1).
inline Matrix random_sparse(int n, double density, std::uint64_t seed) {
  Rng rng(seed);
  Matrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (rng.uniform() < density) d(i, j) = rng.uniform(0.01, 1.0);
  return d;
}

// sum_k w_k P_k as a matrix.
inline Matrix rebuild(const matrix::Decomposition& dec, int n) {
  Matrix m(n);
  for (std::size_t k = 0; k < dec.perms.size(); ++k)
    for (int i = 0; i < n; ++i) m(i, dec.perms[k][static_cast<std::size_t>(i)]) += dec.weights[k];
  return m;
}

inline void expect_covers(const Matrix& served, const Matrix& d, double tol) {
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) EXPECT_GE(served(i, j), d(i, j) - tol) << i << "," << j;
}

inline void expect_verified(const Matrix& d, const matrix::MatrixResult& r) {
  const matrix::VerifyReport rep = verify_matrix_schedule(d, r.schedule);
  EXPECT_TRUE(rep.valid()) << r.schedule.algorithm << ":\n" << rep.to_text();
}

}  // namespace flux::testing
