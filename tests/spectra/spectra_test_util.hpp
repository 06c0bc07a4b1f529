#pragma once
// Shared checks for Spectra tests: every schedule goes through the project's verifier.
#include <gtest/gtest.h>

#include "matrix/algorithm.hpp"
#include "matrix/bounds.hpp"
#include "matrix/generators.hpp"
#include "matrix/verify.hpp"
#include "spectra/decompose.hpp"
#include "spectra/spectra.hpp"

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

inline double total_weight(const matrix::Decomposition& dec) {
  double sum = 0.0;
  for (const double w : dec.weights) sum += w;
  return sum;
}

// The wide-flow synthetic family of the matrix bench: n = 64, 8 large + 24 small flows per port.
inline Matrix synthetic64_wide(std::uint64_t seed) {
  matrix::GeneratorOptions o;
  o.n = 64;
  o.large_flows = 8;
  o.small_flows = 24;
  return generate_matrix("synthetic", o, seed);
}

// `spectra` on seeds 1-3 of `family` at s switches and δ: valid, never longer than the reference,
// and its mean makespan / LB3 below `bound`.
template <class Family>
inline void expect_mean_ratio_below(Family family, int sw, double delta, double bound) {
  double ratio_sum = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(::testing::Message() << seed << " s " << sw << " delta " << delta);
    const matrix::MatrixProblem p = problem(family(seed), sw, delta);
    const matrix::MatrixResult a = spectra::spectra_improved(p);
    expect_valid_schedule(p, a);
    EXPECT_LE(a.schedule.makespan, spectra::spectra_reference(p).schedule.makespan);
    ratio_sum += a.schedule.makespan / matrix::lower_bound_lb3(p.time, p.switches, p.delta);
  }
  EXPECT_LT(ratio_sum / 3, bound) << "s " << sw << " delta " << delta;
}

}  // namespace flux::testing
