#include "matrix/switch_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/rng.hpp"

namespace flux::matrix {
namespace {

// The Spectra authors' schedule.json test vector for EQUALIZE.
const std::vector<double> kWeights = {0.649198974734506, 0.2769618866932458, 0.2508030498319312,
                                      0.226211177422475, 0.12345996408992602};

Decomposition dummy_decomposition(std::size_t k) {
  Decomposition d;
  for (std::size_t l = 0; l < k; ++l) d.perms.push_back({0});
  d.weights = kWeights;
  return d;
}

TEST(SwitchPlan, LptMatchesReferenceLoads) {
  const SwitchPlan plan = lpt_assign(kWeights, 4, 0.01);
  EXPECT_NEAR(plan.load[0], 0.6592, 1e-4);
  EXPECT_NEAR(plan.load[1], 0.2870, 1e-4);
  EXPECT_NEAR(plan.load[2], 0.2608, 1e-4);
  EXPECT_NEAR(plan.load[3], 0.3697, 1e-4);
  ASSERT_EQ(plan.pieces[3].size(), 2u);
  EXPECT_EQ(plan.pieces[3][1].perm, 4);  // w5 joins switch 4
}

struct Expected {
  int sw, perm;
  double start, end;
};

TEST(SwitchPlan, EqualizeReproducesReferenceTestVector) {
  SwitchPlan plan = lpt_assign(kWeights, 4, 0.01);
  equalize_reference(plan, 0.01);
  EXPECT_EQ(plan.splits, 5);
  for (double l : plan.load) EXPECT_NEAR(l, 0.4066587631930211, 1e-12);
  MatrixSchedule out;
  const Decomposition dec = dummy_decomposition(kWeights.size());
  plan_to_slots(plan, dec, 0.01, out);
  EXPECT_NEAR(out.makespan, 0.4066587631930211, 1e-12);
  // Pieces (switch, 1-based perm id, start, end) as listed in the reference.
  const std::vector<Expected> want = {{0, 1, 0.01, 0.380981},     {0, 4, 0.390981, 0.406659},
                                      {1, 2, 0.01, 0.286962},     {1, 1, 0.296962, 0.380981},
                                      {1, 3, 0.390981, 0.406659}, {2, 1, 0.01, 0.204198},
                                      {2, 3, 0.214198, 0.406659}, {3, 4, 0.01, 0.220534},
                                      {3, 5, 0.230534, 0.353994}, {3, 3, 0.363994, 0.406659}};
  ASSERT_EQ(out.slots.size(), want.size());
  // Slots come out switch by switch in timeline order; recover perm ids from the plan order.
  std::size_t k = 0;
  for (std::size_t m = 0; m < plan.pieces.size(); ++m) {
    std::vector<Piece> order = plan.pieces[m];
    std::stable_sort(order.begin(), order.end(), [](const Piece& x, const Piece& y) {
      return x.duration > y.duration || (x.duration == y.duration && x.perm > y.perm);
    });
    for (const Piece& p : order) {
      SCOPED_TRACE(k);
      EXPECT_EQ(out.slots[k].sw, want[k].sw);
      EXPECT_EQ(p.perm + 1, want[k].perm);
      EXPECT_NEAR(out.slots[k].start, want[k].start, 1e-6);
      EXPECT_NEAR(out.slots[k].end, want[k].end, 1e-6);
      ++k;
    }
  }
}

TEST(SwitchPlan, EqualizeConservesEveryPermutationsDuration) {
  SwitchPlan plan = lpt_assign({0.9, 0.3, 0.2, 0.05}, 5, 0.02);
  equalize_reference(plan, 0.02);
  std::vector<double> total(4, 0.0);
  for (const auto& sw : plan.pieces)
    for (const Piece& p : sw) total[static_cast<std::size_t>(p.perm)] += p.duration;
  EXPECT_NEAR(total[0], 0.9, 1e-15);
  EXPECT_NEAR(total[1], 0.3, 1e-15);
  EXPECT_NEAR(total[2], 0.2, 1e-15);
  EXPECT_NEAR(total[3], 0.05, 1e-15);
  EXPECT_GT(plan.splits, 0);
}

TEST(SwitchPlan, SingleSwitchNeverSplits) {
  SwitchPlan plan = lpt_assign({0.5, 0.4}, 1, 0.01);
  equalize_reference(plan, 0.01);
  EXPECT_EQ(plan.splits, 0);
  EXPECT_NEAR(plan.load[0], 0.92, 1e-15);
}

// The portfolio in `spectra` ranks candidates by plan_makespan and builds slots for the winner
// only, so both must agree exactly, also when empty pieces end a switch (no slot, less than the
// load) and when a plan has nothing at all.
TEST(SwitchPlan, PlanMakespanEqualsTimelineMakespanExactly) {
  Rng rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> w(static_cast<std::size_t>(1 + trial % 9));
    for (double& x : w) x = rng.uniform() < 0.2 ? 0.0 : rng.uniform(0.001, 1.0);
    std::sort(w.begin(), w.end(), std::greater<>());
    const int s = 1 + trial % 5;
    const double delta = 0.01 * (trial % 4);
    SwitchPlan plan = lpt_assign(w, s, delta);
    if (trial % 2) equalize_reference(plan, delta);
    Decomposition dec;
    dec.perms.assign(w.size(), {0});
    dec.weights = w;
    MatrixSchedule out;
    plan_to_slots(plan, dec, delta, out);
    EXPECT_EQ(plan_makespan(plan, delta), out.makespan) << "trial " << trial;
  }
  EXPECT_EQ(plan_makespan(lpt_assign({}, 3, 0.01), 0.01), 0.0);
}

}  // namespace
}  // namespace flux::matrix
