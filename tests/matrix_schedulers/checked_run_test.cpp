// run_checked: the path every written schedule takes. A scheduler that returns an invalid
// schedule must be caught as an internal error before anything is written.
#include "matrix_schedulers/checked_run.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.hpp"

namespace flux::matrix_schedulers {
namespace {

LoadedProblem two_by_two() {
  LoadedProblem lp;
  lp.demand.matrix = Matrix(2);
  lp.demand.matrix(0, 1) = 0.5;
  lp.demand.matrix(1, 0) = 0.5;
  lp.problem = {.time = lp.demand.matrix, .switches = 1, .delta = 0.1};
  return lp;
}

// One slot of the swap permutation lasting `duration` after delta.
MatrixAlgorithm fixed(double duration) {
  return {"fixed",
          "test",
          {},
          [duration](const matrix::MatrixProblem& p, const matrix::MatrixRunOptions&,
                     const OptionValues&) {
            matrix::MatrixResult r;
            r.schedule.n = p.time.n();
            r.schedule.switches = p.switches;
            r.schedule.delta = p.delta;
            r.schedule.slots = {{0, p.delta, p.delta + duration, {1, 0}}};
            r.schedule.makespan = p.delta + duration;
            r.permutations = 1;
            return r;
          },
          {}};
}

TEST(MatrixPipeline, FillsBoundRateAndName) {
  const CheckedRun run = run_checked(fixed(0.5), two_by_two());
  EXPECT_EQ(run.result.schedule.algorithm, "fixed");
  EXPECT_DOUBLE_EQ(run.result.schedule.rate, 1.0);
  EXPECT_NEAR(run.result.schedule.lower_bound, 0.6, 1e-12);  // (0.5 + 0.1 * 1) / 1
  EXPECT_EQ(run.bounds.bound, run.result.schedule.lower_bound);
  EXPECT_GE(run.seconds, 0.0);
}

TEST(MatrixPipeline, InvalidScheduleIsAnInternalError) {
  try {
    (void)run_checked(fixed(0.4), two_by_two());
    FAIL() << "accepted a schedule that serves 0.4 of 0.5";
  } catch (const InputError&) {
    FAIL() << "an invalid schedule is a bug, not bad input";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("fixed produced an invalid schedule"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("short by 0.1"), std::string::npos) << e.what();
  }
}

TEST(MatrixPipeline, UnknownAlgorithmNamesTheValidOnes) {
  try {
    (void)algorithm_or_throw("nope");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--algorithm");
    EXPECT_NE(std::string(e.what()).find("spectra-ref"), std::string::npos);
  }
}

}  // namespace
}  // namespace flux::matrix_schedulers
