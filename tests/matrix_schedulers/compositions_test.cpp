// The compositions of a baseline with Spectra: the paper's baseline (Spectra's DECOMPOSE per
// LESS part), naive, and the per-port greedy on Spectra's plan or on the baseline's parts.
#include "matrix_schedulers/compositions.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "matrix_baselines/baseline.hpp"
#include "matrix_baselines/naive.hpp"
#include "matrix_baselines/per_port_greedy.hpp"
#include "matrix_baselines/test_support.hpp"
#include "spectra/spectra.hpp"

namespace flux::matrix_schedulers {
namespace {

matrix::MatrixResult less_baseline(const matrix::MatrixProblem& p,
                                   const matrix::MatrixRunOptions& opt) {
  return flux::matrix_baselines::less_baseline(p, opt, spectra_part_decomposer());
}

matrix::MatrixResult per_port_baseline(const matrix::MatrixProblem& p,
                                       const matrix::MatrixRunOptions& opt) {
  return flux::matrix_baselines::per_port_baseline(p, opt, spectra_part_decomposer());
}

TEST(Baseline, EachPartPlaysSeriallyOnItsOwnSwitch) {
  const Matrix d = testing::random_sparse(16, 0.3, 5);
  const matrix::MatrixProblem p{.time = d, .switches = 4, .delta = 0.03};
  const matrix::MatrixResult r = less_baseline(p, {.seed = 2});
  testing::expect_verified(d, r);
  const auto parts = matrix_baselines::baseline_parts(p, {.seed = 2});
  // Switch k's end = sum of its slot durations + δ per slot; its slots serve only part k.
  for (int k = 0; k < p.switches; ++k) {
    double busy = 0.0, end = 0.0;
    int slots = 0;
    for (const matrix::Slot& s : r.schedule.slots)
      if (s.sw == k) busy += s.end - s.start, end = std::max(end, s.end), ++slots;
    EXPECT_NEAR(end, busy + slots * p.delta, 1e-9);
    EXPECT_GE(busy, parts[static_cast<std::size_t>(k)].max_line_sum() - 1e-9);
  }
}

TEST(Baseline, NaiveVerifies) {
  matrix::GeneratorOptions opt;
  opt.n = 32;
  const Matrix d = generate_matrix("synthetic", opt, 4);
  for (int s : {3, 4}) {
    const matrix::MatrixProblem p{.time = d, .switches = s, .delta = 0.02};
    const matrix::MatrixResult nv = naive_schedule(p, spectra_part_decomposer());
    testing::expect_verified(d, nv);
    // Every switch runs the same K permutations of D/s back to back.
    EXPECT_EQ(static_cast<int>(nv.schedule.slots.size()), s * nv.permutations);
  }
}

// Averaged Baseline / Spectra-ref over s in {4, 16} x δ in {.01, .02, .04, .08}
// (what an independent re-implementation of the Spectra authors' code measured).
double average_ratio(const std::string& kind, const matrix::GeneratorOptions& opt, int seeds) {
  double sum = 0.0;
  int count = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const Matrix d = generate_matrix(kind, opt, static_cast<std::uint64_t>(seed));
    for (int s : {4, 16})
      for (double delta : {0.01, 0.02, 0.04, 0.08}) {
        const matrix::MatrixProblem p{.time = d, .switches = s, .delta = delta};
        const matrix::MatrixResult base =
            less_baseline(p, {.seed = static_cast<std::uint64_t>(seed)});
        const matrix::MatrixResult spec = spectra::spectra_reference(p);
        sum += base.schedule.makespan / spec.schedule.makespan;
        ++count;
      }
  }
  return sum / count;
}

TEST(Baseline, CalibrationSyntheticNear2point4) {
  matrix::GeneratorOptions opt;
  opt.n = 100;
  EXPECT_NEAR(average_ratio("synthetic", opt, 2), 2.4, 0.24);
}

TEST(Baseline, CalibrationCleanGpt32Near1point4) {
  matrix::GeneratorOptions opt;
  opt.n = 32;
  EXPECT_NEAR(average_ratio("gpt", opt, 1), 1.4, 0.14);
}

TEST(PerPortGreedy, SpectraAndBaselineVariantsVerifyAsPerPortSchedules) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Matrix d = testing::random_sparse(12, 0.3, seed);
    const matrix::MatrixProblem p{.time = d, .switches = 4, .delta = 0.02};
    const matrix::MatrixResult a = per_port_spectra(p);
    const matrix::MatrixResult b = per_port_baseline(p, {.seed = seed});
    for (const matrix::MatrixResult* r : {&a, &b}) {
      EXPECT_EQ(r->schedule.reconfiguration, matrix::Reconfiguration::per_port);
      EXPECT_TRUE(r->schedule.slots.empty());
      testing::expect_verified(d, *r);
    }
  }
}

TEST(PerPortGreedy, BaselineHalvesOfOnePermutationRunInParallel) {
  // A single permutation has no cycle to push flow around: each LESS part is D/2, served by one
  // circuit per port from δ to δ + 0.5.
  Matrix d(4);
  for (int i = 0; i < 4; ++i) d(i, (i + 1) % 4) = 1.0;
  const matrix::MatrixProblem p{.time = d, .switches = 2, .delta = 0.1};
  const matrix::MatrixResult r = per_port_baseline(p, {.seed = 1});
  EXPECT_NEAR(r.schedule.makespan, 0.1 + 0.5, 1e-12);
}

// Both per-port variants are at most the all-stop schedule they start from: Spectra's for
// `per-port`, the serial play of the LESS parts for `baseline-per-port`.
TEST(PerPortGreedy, NeverWorseThanItsAllStopStartOnTheGenerators) {
  for (const std::string& kind : matrix::generator_kinds())
    for (int s : {1, 4, 8})
      for (double delta : {0.01, 0.04}) {
        SCOPED_TRACE(kind + " s=" + std::to_string(s) + " delta=" + std::to_string(delta));
        matrix::GeneratorOptions opt;
        opt.n = 32;
        opt.tokens = 128;
        const Matrix d = generate_matrix(kind, opt, 3);
        const matrix::MatrixProblem p{.time = d, .switches = s, .delta = delta};
        const matrix::MatrixResult spectra = per_port_spectra(p);
        const matrix::MatrixResult baseline = per_port_baseline(p, {.seed = 3});
        EXPECT_LE(spectra.schedule.makespan,
                  spectra::spectra_reference(p).schedule.makespan * (1 + 1e-12));
        EXPECT_LE(baseline.schedule.makespan,
                  less_baseline(p, {.seed = 3}).schedule.makespan * (1 + 1e-12));
        testing::expect_verified(d, spectra);
        testing::expect_verified(d, baseline);
      }
}

}  // namespace
}  // namespace flux::matrix_schedulers
