#include "workload/task_name.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>

#include "workload/task_emitter.hpp"
#include "workload/task_sink.hpp"

namespace flux::workload {
namespace {

TEST(TaskName, ReadsAsTheStringItWasMadeFrom) {
  const TaskName n(std::string("L3.mb0.fwd.attn-allreduce.rs2"));
  EXPECT_EQ(n, "L3.mb0.fwd.attn-allreduce.rs2");
  EXPECT_EQ(n.size(), 29u);
  EXPECT_EQ(n.str() + "", "L3.mb0.fwd.attn-allreduce.rs2");
  EXPECT_EQ(n + ".recv", "L3.mb0.fwd.attn-allreduce.rs2.recv");
  EXPECT_EQ(fmt::format("[{}]", n), "[L3.mb0.fwd.attn-allreduce.rs2]");
  std::ostringstream os;
  os << n;
  EXPECT_EQ(os.str(), "L3.mb0.fwd.attn-allreduce.rs2");
  EXPECT_TRUE(TaskName().empty());
  EXPECT_TRUE(TaskName("").empty());
  EXPECT_STREQ(TaskName().c_str(), "");
}

TEST(TaskName, CopiesShareOneStringThatOutlivesTheOriginal) {
  TaskName copy;
  {
    const TaskName original("a-name-longer-than-fifteen-characters");
    copy = original;
    EXPECT_EQ(copy.c_str(), original.c_str());  // shared, not copied
  }
  EXPECT_EQ(copy, "a-name-longer-than-fifteen-characters");
  TaskName moved = std::move(copy);
  EXPECT_EQ(moved, "a-name-longer-than-fifteen-characters");
  const TaskName& same = moved;
  moved = same;  // self-assignment keeps the string
  EXPECT_EQ(moved, "a-name-longer-than-fifteen-characters");
  EXPECT_EQ(TaskName("x"), TaskName(std::string("x")));  // equal by value, not only by pointer
  EXPECT_FALSE(TaskName("x") == TaskName("y"));
}

TEST(TaskName, ConsecutiveEmittedTasksOfOneNameShareIt) {
  WorkloadSink sink;
  {
    TaskEmitter em(sink, 4);
    const TaskTags tags;
    for (int g = 0; g < 4; ++g) em.compute(g, 1.0, "L0.mb0.fwd.a-long-stage-name", tags);
    em.send(0, 1, 8.0, "L0.mb0.fwd.another-long-name", tags, {0});
    em.finish();
  }
  const Workload w = sink.take();
  ASSERT_EQ(w.tasks.size(), 5u);
  for (int t = 1; t < 4; ++t) EXPECT_EQ(w.tasks[t].name.c_str(), w.tasks[0].name.c_str());
  EXPECT_EQ(w.tasks[4].name, "L0.mb0.fwd.another-long-name");
}

}  // namespace
}  // namespace flux::workload
