#include "report_html/critical_path.hpp"

#include <gtest/gtest.h>

namespace flux::report_html {
namespace {

// GPU 0 computes A, sends a message to GPU 1 which waits for a circuit; GPU 1 computes B (short,
// independent) and then C once the message arrives; GPU 0 computes D meanwhile and ends early.
// The path is A -> message -> C; B and D are off it.
TEST(CriticalPath, FollowsTheMessageThatHeldTheLastTaskBack) {
  const std::vector<ComputeSlice> compute = {
      {0, 0.0, 1.0, "A"}, {1, 0.0, 0.5, "B"}, {1, 3.0, 4.0, "C"}, {0, 1.0, 2.0, "D"}};
  const std::vector<FlowRow> flows = {{"m", 0, 1, 100, 1.0, 2.5, 3.0}};
  const CriticalPath p = trace_critical_path(compute, flows, 2);
  EXPECT_EQ(p.compute, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(p.flows, (std::vector<std::size_t>{0}));
}

// Without messages the path is the chain of slices on the GPU that ends last.
TEST(CriticalPath, ChainsSlicesOnOneGpu) {
  const std::vector<ComputeSlice> compute = {
      {0, 0.0, 1.0, "a"}, {0, 1.0, 2.0, "b"}, {1, 0.0, 2.5, "c"}, {1, 2.5, 3.0, "d"}};
  const CriticalPath p = trace_critical_path(compute, {}, 2);
  EXPECT_EQ(p.compute, (std::vector<std::size_t>{2, 3}));
  EXPECT_TRUE(p.flows.empty());
}

TEST(CriticalPath, EmptyTraceHasNoPath) {
  const CriticalPath p = trace_critical_path({}, {}, 4);
  EXPECT_TRUE(p.compute.empty());
  EXPECT_TRUE(p.flows.empty());
}

}  // namespace
}  // namespace flux::report_html
