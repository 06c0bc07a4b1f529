#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "workload/pipeline_schedule.hpp"

namespace flux::workload {
namespace {

TEST(PipelineSchedule, OneFOneBWarmupSteadyCooldown) {
  const auto ops = pipeline_schedule(0, 4, 8, 1);
  ASSERT_EQ(ops.size(), 16u);
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(ops[static_cast<std::size_t>(k)].forward);
  EXPECT_TRUE(ops[3].forward);
  EXPECT_FALSE(ops[4].forward);  // first backward after p - stage = 4 forwards
  EXPECT_EQ(ops[4].microbatch, 0);
  const auto last = pipeline_schedule(3, 4, 8, 1);
  for (std::size_t k = 0; k < last.size(); ++k) EXPECT_EQ(last[k].forward, k % 2 == 0);
  const auto few = pipeline_schedule(0, 4, 2, 1);  // fewer micro-batches than stages
  EXPECT_EQ(few.size(), 4u);
}

TEST(PipelineSchedule, EveryPassExactlyOnceAndBackwardAfterForward) {
  for (int chunks : {1, 2, 3}) {
    for (int stage = 0; stage < 4; ++stage) {
      const auto ops = pipeline_schedule(stage, 4, 8, chunks);
      std::set<std::tuple<int, int, bool>> seen;
      for (const PipelineOp& op : ops) {
        EXPECT_TRUE(seen.emplace(op.chunk, op.microbatch, op.forward).second);
        if (!op.forward) {
          EXPECT_TRUE(seen.count({op.chunk, op.microbatch, true}));
        }
      }
      EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * 8 * chunks));
    }
  }
}

TEST(PipelineSchedule, InputsFollowTheStageChain) {
  int from = 0;
  PipelineOp op{1, 3, true}, in;
  ASSERT_TRUE(pipeline_input(0, 4, 2, op, from, in));  // chunk 1 on stage 0 <- chunk 0 of stage 3
  EXPECT_EQ(from, 3);
  EXPECT_EQ(in.chunk, 0);
  EXPECT_FALSE(pipeline_input(0, 4, 2, {0, 3, true}, from, in));
  EXPECT_FALSE(pipeline_input(3, 4, 2, {1, 3, false}, from, in));
  ASSERT_TRUE(pipeline_input(3, 4, 2, {0, 3, false}, from, in));  // <- chunk 1 of stage 0
  EXPECT_EQ(from, 0);
  EXPECT_EQ(in.chunk, 1);
}

}  // namespace
}  // namespace flux::workload
