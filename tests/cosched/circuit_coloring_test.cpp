#include "cosched/circuit_coloring.hpp"

#include <gtest/gtest.h>

#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::make_fabric;
using testing::make_workload;
using testing::send;

// Two steps of a ring all-reduce on 4 GPUs: neighbouring ring circuits get different OCSes, so
// a step's four sends never share a port on one OCS.
TEST(CircuitColoring, RingAlternatesBetweenTwoOcses) {
  std::vector<workload::Task> tasks;
  for (int step = 0; step < 2; ++step)
    for (int g = 0; g < 4; ++g)
      tasks.push_back(send(g, (g + 1) % 4, 1, step == 0 ? std::vector<int>{} : std::vector{g}));
  const auto inst = make_instance(make_workload(4, tasks), make_fabric(4, 2, 1.0));
  const auto color = circuit_coloring(inst);
  for (int m = 0; m < 8; ++m) {
    EXPECT_EQ(color[m], color[m % 4]) << "one OCS per circuit";
    EXPECT_NE(color[m % 4], color[(m + 1) % 4]) << "ring neighbours " << m % 4;
  }
}

TEST(CircuitColoring, StaysWithinTheFabricsOcses) {
  for (const fabric::CircuitKind kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
    for (int ocs : {1, 3}) {
      const auto inst =
          make_instance(testing::random_workload(4, 5, 20), make_fabric(5, ocs, 1.0, kind));
      for (int c : circuit_coloring(inst)) {
        EXPECT_GE(c, 0);
        EXPECT_LT(c, ocs);
      }
    }
}

}  // namespace
}  // namespace flux::cosched
