#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "matrix/generators.hpp"
#include "spectra/spectra.hpp"
#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

// LB1 of docs/models.md (valid for every all-stop schedule).
double lb1(const Matrix& d, int s, double delta) {
  double lb = 0.0;
  const auto rows = d.row_sums(), cols = d.col_sums();
  for (int p = 0; p < d.n(); ++p) {
    int kr = 0, kc = 0;
    for (int q = 0; q < d.n(); ++q) kr += d(p, q) > 0, kc += d(q, p) > 0;
    if (kr) lb = std::max(lb, (rows[static_cast<std::size_t>(p)] + delta * std::max(kr, s)) / s);
    if (kc) lb = std::max(lb, (cols[static_cast<std::size_t>(p)] + delta * std::max(kc, s)) / s);
  }
  return lb;
}

TEST(SpectraImproved, NeverWorseThanReferenceAndAlwaysValid) {
  const std::vector<int> switches = {1, 2, 3, 4, 8, 16};
  const std::vector<double> deltas = {0.0, 0.005, 0.01, 0.04, 0.08};
  int instances = 0, strictly_better = 0;
  for (const std::string& kind : matrix::generator_kinds())
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      matrix::GeneratorOptions opt;
      opt.n = kind == "gpt" ? 32 : 8 + static_cast<int>(seed % 5) * 6;
      opt.tokens = 32;
      opt.noise = kind == "gpt" && seed % 2 ? std::optional<double>(0.003) : std::nullopt;
      const Matrix d = generate_matrix(kind, opt, seed);
      const int s = switches[(seed + static_cast<std::uint64_t>(instances)) % switches.size()];
      const double delta =
          deltas[(seed * 3 + static_cast<std::uint64_t>(instances)) % deltas.size()];
      SCOPED_TRACE(kind + " seed " + std::to_string(seed) + " s " + std::to_string(s));
      const matrix::MatrixProblem p = testing::problem(d, s, delta);
      const matrix::MatrixResult ref = spectra_reference(p);
      const matrix::MatrixResult imp = spectra_improved(p);
      testing::expect_valid_schedule(p, ref);
      testing::expect_valid_schedule(p, imp);
      EXPECT_LE(imp.schedule.makespan, ref.schedule.makespan + 1e-12);
      EXPECT_GE(imp.schedule.makespan, lb1(d, s, delta) - 1e-12);
      EXPECT_EQ(imp.schedule.algorithm, "spectra");
      ++instances;
      strictly_better += imp.schedule.makespan < ref.schedule.makespan - 1e-9;
    }
  EXPECT_GT(strictly_better, instances / 3);  // the portfolio must actually help
}

// Issue item 5: n = 32, 7 random weighted permutations, s = 8; the reference lands ~1.41x above
// the bound, an Eclipse-style decomposition ~1.02x.
TEST(SpectraImproved, SumOfFewPermutationsGetsCloseToTheBound) {
  double ref_ratio = 0, imp_ratio = 0;
  const int trials = 5;
  for (std::uint64_t seed = 1; seed <= trials; ++seed) {
    const Matrix d = matrix::generate_permutations({}, seed);
    const matrix::MatrixProblem p = testing::problem(d, 8, 0.01);
    const double lb = lb1(d, 8, 0.01);
    const matrix::MatrixResult ref = spectra_reference(p);
    const matrix::MatrixResult imp = spectra_improved(p);
    testing::expect_valid_schedule(p, imp);
    ref_ratio += ref.schedule.makespan / lb / trials;
    imp_ratio += imp.schedule.makespan / lb / trials;
  }
  RecordProperty("ref_ratio", std::to_string(ref_ratio));
  RecordProperty("improved_ratio", std::to_string(imp_ratio));
  EXPECT_GT(ref_ratio, 1.2);
  EXPECT_LT(imp_ratio, 1.1);
  std::printf("perm n=32 k=7 s=8: ref %.3f x LB1, improved %.3f x LB1\n", ref_ratio, imp_ratio);
}

TEST(SpectraImproved, GptSixteenSwitchesBeatsReference) {
  const Matrix d = matrix::generate_gpt({}, 1);
  for (double delta : {0.01, 0.02, 0.04, 0.08}) {
    const matrix::MatrixProblem p = testing::problem(d, 16, delta);
    const double ref = spectra_reference(p).schedule.makespan;
    const matrix::MatrixResult imp = spectra_improved(p);
    testing::expect_valid_schedule(p, imp);
    EXPECT_LT(imp.schedule.makespan, ref) << delta;
  }
}

}  // namespace
}  // namespace flux::spectra
