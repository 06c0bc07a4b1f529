#include "cosched/conflicts.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "fabric/workload_fit.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::compute;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

TEST(Conflicts, ClassifiesReuseFixedAndFreePairs) {
  // m0: 0->1, m1: 1->0 (duplex reverse: dropped), m2: 0->1 after m0 (R, F), m3: 1->2 (U).
  const auto w = make_workload(
      3, {send(0, 1, 1), send(1, 0, 1), compute(1, 1, {0}), send(0, 1, 1, {2}), send(1, 2, 1)});
  const auto inst = make_instance(w, make_fabric(3, 2, 1.0));
  const MessageClosure closure(inst);
  EXPECT_TRUE(closure.ancestor(0, 2));
  EXPECT_FALSE(closure.ancestor(2, 0));
  EXPECT_FALSE(closure.ancestor(0, 1));
  const auto c = analyze_conflicts(inst, closure);
  EXPECT_EQ(c.dropped_duplex, 2);  // (m0,m1), (m1,m2)
  ASSERT_EQ(c.pairs.size(), 4u);   // (m0,m2) (m0,m3) (m1,m3) (m2,m3)
  EXPECT_EQ(c.reuse, 1);
  EXPECT_EQ(c.fixed, 1);
  EXPECT_EQ(c.free, 3);
  const auto& p = c.pairs.front();
  EXPECT_EQ(p.first, 0);
  EXPECT_EQ(p.second, 2);
  EXPECT_TRUE(p.same_circuit && p.ordered);
}

TEST(Conflicts, SimplexPairsNeedACommonSenderOrReceiver) {
  const auto w = make_workload(3, {send(0, 1, 1), send(1, 0, 1), send(2, 1, 1), send(0, 2, 1)});
  const auto inst = make_instance(w, make_fabric(3, 1, 1.0, fabric::CircuitKind::simplex));
  const auto c = analyze_conflicts(inst, MessageClosure(inst));
  // (m0,m2) share RX 1, (m0,m3) share TX 0; 1->0 shares no port with anything.
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.dropped_duplex, 0);
  EXPECT_EQ(c.reuse, 0);
}

// Flux refuses exactly what the simulator refuses, in the same words: one rule for both.
TEST(Instance, RejectsBadWorkloadsLikeTheSimulator) {
  auto expect_error = [](const workload::Workload& w, const fabric::Fabric& f,
                         const std::string& field) {
    std::string simulator;
    try {
      fabric::check_workload_fits(w, f, "workload");
    } catch (const InputError& e) {
      simulator = e.what();
    }
    try {
      (void)make_instance(w, f);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.field()).find(field), std::string::npos) << e.what();
      if (field != "/ocs") {
        EXPECT_EQ(e.what(), simulator);
      }
    }
  };
  auto cyc = make_workload(2, {send(0, 1, 1, {1}), compute(0, 1, {0})});
  expect_error(cyc, make_fabric(2, 1, 0), "/tasks");
  expect_error(make_workload(2, {send(1, 1, 1)}), make_fabric(2, 1, 0), "/tasks/0");
  expect_error(make_workload(4, {send(0, 3, 1)}), make_fabric(3, 1, 0), "/gpus");
  expect_error(make_workload(2, {send(0, 1, 1)}), make_fabric(3, 1, 0), "/gpus");
  expect_error(make_workload(3, {send(0, 3, 1)}), make_fabric(3, 1, 0), "/tasks/0");
  expect_error(make_workload(2, {send(0, 1, -1)}), make_fabric(2, 1, 0), "/tasks/0");
  expect_error(make_workload(2, {send(0, 1, 1)}), make_fabric(2, 0, 0), "/ocs");
}

TEST(Instance, NamesTheCycle) {
  auto w = make_workload(2, {compute(0, 1, {2}), send(0, 1, 1, {0}), compute(1, 1, {1})});
  try {
    (void)make_instance(w, make_fabric(2, 1, 0));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("100"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace flux::cosched
