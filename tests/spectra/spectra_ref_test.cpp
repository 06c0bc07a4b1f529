#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "matrix/generators.hpp"
#include "spectra/spectra.hpp"
#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

const std::vector<double> kDeltas = {0.01, 0.02, 0.04, 0.08};

// Spectra makespans an independent re-implementation of the authors' code measured (mean of 8 noisy
// synthetic matrices, n = 100).
TEST(SpectraRef, SyntheticCalibrationWithinThreePercent) {
  const std::vector<std::pair<int, std::vector<double>>> table = {
      {4, {0.3114, 0.3514, 0.4314, 0.5914}}, {16, {0.0871, 0.1046, 0.1396, 0.2096}}};
  std::vector<Matrix> ds;
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    ds.push_back(matrix::generate_synthetic({}, seed));
  for (const auto& [s, want] : table)
    for (std::size_t k = 0; k < kDeltas.size(); ++k) {
      double mean = 0;
      for (const Matrix& d : ds) {
        const matrix::MatrixProblem p = testing::problem(d, s, kDeltas[k]);
        const matrix::MatrixResult r = spectra_reference(p);
        testing::expect_valid_schedule(p, r);
        EXPECT_EQ(r.permutations, d.max_line_nonzeros());
        mean += r.schedule.makespan / static_cast<double>(ds.size());
      }
      EXPECT_NEAR(mean, want[k], 0.03 * want[k]) << "s=" << s << " delta=" << kDeltas[k];
    }
}

// Same calibration: GPT-32 clean makespans (s = 4 equals LB2, i.e. optimal).
TEST(SpectraRef, GptThirtyTwoCalibration) {
  const Matrix d = matrix::generate_gpt({}, 1);
  const std::vector<std::pair<int, std::vector<double>>> table = {
      {4, {0.2675, 0.285, 0.32, 0.39}}, {16, {0.0823, 0.0998, 0.1303, 0.1903}}};
  for (const auto& [s, want] : table)
    for (std::size_t k = 0; k < kDeltas.size(); ++k) {
      const matrix::MatrixProblem p = testing::problem(d, s, kDeltas[k]);
      const matrix::MatrixResult r = spectra_reference(p);
      testing::expect_valid_schedule(p, r);
      EXPECT_NEAR(r.schedule.makespan, want[k], 0.03 * want[k])
          << "s=" << s << " delta=" << kDeltas[k];
    }
}

TEST(SpectraRef, NoEqualizationAblationOnGptIsDominatedByTensorParallel) {
  const Matrix d = matrix::generate_gpt({}, 1);
  const matrix::MatrixResult r =
      spectra_reference(testing::problem(d, 16, 0.01), {.equalize = false});
  EXPECT_EQ(r.splits, 0);
  EXPECT_NEAR(r.schedule.makespan, 0.01 + 0.94717, 1e-4);  // calibration: ≈ 0.957
}

TEST(SpectraRef, PieceDurationsSumToWeights) {
  const Matrix d = matrix::generate_synthetic({}, 4);
  const matrix::MatrixProblem p = testing::problem(d, 16, 0.02);
  const matrix::Decomposition dec = spectra_decompose(d);
  const matrix::MatrixResult r = schedule_decomposition(dec, p, true);
  testing::expect_valid_schedule(p, r);
  std::vector<double> sum(dec.perms.size(), 0.0);
  for (const matrix::Slot& slot : r.schedule.slots)
    for (std::size_t l = 0; l < dec.perms.size(); ++l)
      if (dec.perms[l] == slot.perm) {
        sum[l] += slot.end - slot.start;
        break;
      }
  for (std::size_t l = 0; l < dec.perms.size(); ++l) EXPECT_NEAR(sum[l], dec.weights[l], 1e-12);
  EXPECT_GT(r.splits, 0);
}

TEST(SpectraRef, ZeroMatrixGivesEmptySchedule) {
  const matrix::MatrixResult r = spectra_reference(testing::problem(Matrix(3), 2, 0.1));
  EXPECT_TRUE(r.schedule.slots.empty());
  EXPECT_EQ(r.schedule.makespan, 0.0);
}

TEST(SpectraRef, RejectsBadProblems) {
  EXPECT_THROW((void)spectra_reference(testing::problem(Matrix(2), 0, 0.1)), InputError);
  EXPECT_THROW((void)spectra_improved(testing::problem(Matrix(2), matrix::kMaxSwitches + 1, 0.1)),
               InputError);
  EXPECT_THROW((void)spectra_improved(testing::problem(Matrix(2), 2, std::nan(""))), InputError);
  EXPECT_THROW((void)spectra_reference(testing::problem(Matrix(2), 2, -1.0)), InputError);
  Matrix bad(2);
  bad(0, 1) = -1.0;
  EXPECT_THROW((void)spectra_reference(testing::problem(bad, 2, 0.1)), InputError);
}

}  // namespace
}  // namespace flux::spectra
