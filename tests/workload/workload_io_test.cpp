#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "workload/task_sink.hpp"
#include "workload/validate.hpp"
#include "workload/workload_io.hpp"

namespace flux::workload {
namespace {

const char* kSmall = R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
  {"id": 10, "kind": "compute", "gpu": 0, "duration": 0.0011, "name": "L0.fwd", "after": [],
   "layer": 0, "microbatch": 0, "phase": "fwd"},
  {"id": 7, "kind": "send", "src": 0, "dst": 1, "bytes": 4194304, "name": "s", "after": [10],
   "group": "tp", "collective": 3},
  {"id": 3, "kind": "compute", "gpu": 1, "duration": 0.5, "after": [7]},
  {"id": 4, "kind": "compute", "gpu": 0, "duration": 0.25, "after": [10]}
]})";

TEST(WorkloadIo, ParsesIdsAndTags) {
  const Workload w = parse_workload(kSmall, "w.json");
  ASSERT_EQ(w.tasks.size(), 4u);
  EXPECT_EQ(w.gpus, 2);
  EXPECT_EQ(w.tasks[1].kind, TaskKind::send);
  EXPECT_EQ(w.tasks[1].bytes, 4194304.0);
  EXPECT_EQ(w.tasks[1].after, std::vector<int>{0});  // index of id 10
  EXPECT_EQ(w.tasks[1].collective, 3);
  EXPECT_EQ(w.tasks[1].group, "tp");
  EXPECT_EQ(w.tasks[0].phase, "fwd");
  EXPECT_EQ(w.tasks[2].layer, -1);
}

TEST(WorkloadIo, RoundTripIsLossless) {
  Workload w = parse_workload(kSmall, "w.json");
  w.tasks[0].name = "quote\" back\\slash\ttab";
  w.tasks[0].duration = 0.1 + 0.2;  // needs the shortest round-trip representation
  const std::string text = workload_to_json(w);
  const Workload back = parse_workload(text, "back.json");
  ASSERT_EQ(back.tasks.size(), w.tasks.size());
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    EXPECT_EQ(back.tasks[i].id, w.tasks[i].id);
    EXPECT_EQ(back.tasks[i].name, w.tasks[i].name);
    EXPECT_EQ(back.tasks[i].duration, w.tasks[i].duration);
    EXPECT_EQ(back.tasks[i].after, w.tasks[i].after);
    EXPECT_EQ(back.tasks[i].collective, w.tasks[i].collective);
  }
  EXPECT_EQ(workload_to_json(back), text);
}

TEST(WorkloadIo, StreamingWriterUsesIndicesAsIds) {
  std::ostringstream out;
  WorkloadJsonWriter writer(out);
  Workload w = parse_workload(kSmall, "w.json");
  writer.begin(w.gpus);
  for (const Task& t : w.tasks) {
    Task c = t;
    c.id = &t - w.tasks.data();
    writer.add(c);
  }
  writer.end();
  const Workload back = parse_workload(out.str(), "s.json");
  EXPECT_EQ(back.tasks[3].id, 3);
  EXPECT_EQ(back.tasks[1].after, std::vector<int>{0});
}

void expect_error_in(const std::string& json, const std::string& field, const std::string& words) {
  try {
    (void)parse_workload(json, "w.json");
    ADD_FAILURE() << "accepted " << json;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "w.json");
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos)
        << e.what() << " lacks " << words;
  }
}

// The same error whether the tasks are read as parsed ("format" and "gpus" first) or from the
// whole document (tasks first).
void expect_error(const std::string& tasks, const std::string& field, const std::string& words) {
  expect_error_in(R"({"format": "flux.workload/1", "gpus": 4, "tasks": [)" + tasks + "]}", field,
                  words);
  expect_error_in(R"({"tasks": [)" + tasks + R"(], "gpus": 4, "format": "flux.workload/1"})", field,
                  words);
}

TEST(WorkloadIo, RejectsBadTasksNamingTheField) {
  const std::string c0 = R"({"id": 0, "kind": "compute", "gpu": 0, "duration": 1, "after": []})";
  expect_error(c0 + "," + c0, "/tasks/1/id", "unique");
  expect_error(R"({"id": 0, "kind": "compute", "gpu": 0, "duration": 1, "after": [5]})",
               "/tasks/0/after/0", "existing");
  expect_error(R"({"id": 0, "kind": "send", "src": 1, "dst": 1, "bytes": 1, "after": []})",
               "/tasks/0/dst", "different");
  expect_error(R"({"id": 0, "kind": "send", "src": 1, "dst": 4, "bytes": 1, "after": []})",
               "/tasks/0/dst", "4");
  expect_error(R"({"id": 0, "kind": "send", "src": 1, "dst": 2, "bytes": -1, "after": []})",
               "/tasks/0/bytes", ">= 0");
  expect_error(R"({"id": 0, "kind": "compute", "gpu": 0, "duration": 1})", "/tasks/0/after",
               "missing");
  expect_error(R"({"id": 0, "kind": "recv", "gpu": 0, "duration": 1, "after": []})",
               "/tasks/0/kind", "send");
  expect_error(c0 + R"(, {"id": 1, "kind": "compute", "gpu": 1, "duration": 1, "after": [1]})",
               "/tasks/1/after/0", "another task");
  expect_error("5", "/tasks/0", "an object");
  // Ids 0, 1, 5: the map from id to index starts at the third task and still sees the first two.
  const std::string c1 = R"({"id": 1, "kind": "compute", "gpu": 1, "duration": 1, "after": [0]})";
  expect_error(c0 + "," + c1 + R"(, {"id": 5, "kind": "compute", "gpu": 2, "duration": 1,
                  "after": [1]},)" +
                   c1,
               "/tasks/3/id", "unique");
}

// Tasks before "gpus" and "format" are read from the whole document: the same workload.
TEST(WorkloadIo, ReadsTheFieldsInAnyOrder) {
  const char* first = R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
    {"id": 4, "kind": "send", "src": 0, "dst": 1, "bytes": 8, "after": [9], "name": "s"},
    {"id": 9, "kind": "compute", "gpu": 1, "duration": 0.5, "after": []}]})";
  const char* last = R"({"tasks": [
    {"id": 4, "kind": "send", "src": 0, "dst": 1, "bytes": 8, "after": [9], "name": "s"},
    {"id": 9, "kind": "compute", "gpu": 1, "duration": 0.5, "after": []}],
    "extra": {"tasks": 1}, "gpus": 2, "format": "flux.workload/1"})";
  const Workload w = parse_workload(first, "f.json");
  EXPECT_EQ(w.tasks[0].after, std::vector<int>{1});
  EXPECT_EQ(workload_to_json(parse_workload(last, "l.json")), workload_to_json(w));
}

TEST(WorkloadIo, RejectsAFieldGivenTwice) {
  expect_error_in(R"({"format": "flux.workload/1", "gpus": 2, "tasks": [], "tasks": []})", "/tasks",
                  "a second");
  expect_error_in(R"({"format": "flux.workload/1", "gpus": 2, "tasks": [], "gpus": 3})", "/gpus",
                  "a second");
}

TEST(WorkloadIo, ReadsAFileAsItParsesIt) {
  const std::string path = ::testing::TempDir() + "flux-workload-io-test.json";
  std::ofstream(path) << kSmall;
  const Workload w = read_workload(path);
  std::remove(path.c_str());
  EXPECT_EQ(workload_to_json(w), workload_to_json(parse_workload(kSmall, "w.json")));
  EXPECT_EQ(w.tasks[2].after, std::vector<int>{1});  // id 7
}

TEST(WorkloadValidate, ReportsTheCycle) {
  expect_error(R"({"id": 1, "kind": "compute", "gpu": 0, "duration": 1, "after": [3]},
                  {"id": 2, "kind": "send", "src": 0, "dst": 1, "bytes": 1, "after": [1]},
                  {"id": 3, "kind": "send", "src": 1, "dst": 0, "bytes": 1, "after": [2]},
                  {"id": 4, "kind": "compute", "gpu": 3, "duration": 1, "after": []})",
               "/tasks", "cycle 2 -> 3 -> 1 -> 2");
}

TEST(WorkloadValidate, RejectsUnorderedComputeOfOneGpuNamingBoth) {
  expect_error(R"({"id": 1, "kind": "compute", "gpu": 2, "duration": 1, "after": [], "name": "a"},
                  {"id": 2, "kind": "compute", "gpu": 2, "duration": 1, "after": [], "name": "b"})",
               "/tasks", "1 (a) and 2 (b)");
}

// Tasks listed predecessors first are checked in index order, but an error names the pair that
// Kahn's order meets first, as before: here index order would meet GPU 1's pair (2, 3) first,
// Kahn's order (1, 3, 4, 2) meets GPU 0's pair (1, 4).
TEST(WorkloadValidate, NamesTheUnorderedPairOfKahnsOrder) {
  expect_error(R"({"id": 1, "kind": "compute", "gpu": 0, "duration": 1, "after": [], "name": "a"},
                  {"id": 2, "kind": "compute", "gpu": 1, "duration": 1, "after": [1], "name": "b"},
                  {"id": 3, "kind": "compute", "gpu": 1, "duration": 1, "after": [], "name": "c"},
                  {"id": 4, "kind": "compute", "gpu": 0, "duration": 1, "after": [], "name": "d"})",
               "/tasks", "compute tasks of gpu 0 ordered by `after`, but tasks 1 (a) and 4 (d)");
}

// Each task's successors in index order, a predecessor listed twice giving two entries, whether
// or not the tasks come predecessors first.
TEST(WorkloadValidate, SuccessorsAreInIndexOrder) {
  Workload w;
  w.gpus = 1;
  w.tasks.resize(5);
  w.tasks[0].after = {3};
  w.tasks[1].after = {3, 3};
  w.tasks[2].after = {0, 3};
  w.tasks[4].after = {0};
  const Successors s = successors(w);
  EXPECT_EQ(s.offset, (std::vector<std::size_t>{0, 2, 2, 2, 6, 6}));
  EXPECT_EQ(s.target, (std::vector<int>{2, 4, 0, 1, 1, 2}));
  EXPECT_FALSE(predecessors_before(w.tasks[0], 0));
  EXPECT_TRUE(predecessors_before(w.tasks[4], 4));
}

TEST(WorkloadValidate, AcceptsComputeOrderedThroughSends) {
  // 1 -> send -> 3 orders the two compute tasks of GPU 0 without a direct edge.
  const Workload w = parse_workload(
      R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
        {"id": 1, "kind": "compute", "gpu": 0, "duration": 1, "after": []},
        {"id": 2, "kind": "send", "src": 0, "dst": 1, "bytes": 1, "after": [1]},
        {"id": 5, "kind": "compute", "gpu": 1, "duration": 1, "after": [2]},
        {"id": 6, "kind": "send", "src": 1, "dst": 0, "bytes": 1, "after": [5]},
        {"id": 3, "kind": "compute", "gpu": 0, "duration": 1, "after": [6]}]})",
      "w.json");
  const std::vector<int> order = topological_order(w);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(WorkloadValidate, TopologicalOrderPutsPredecessorsFirst) {
  Workload w;
  w.gpus = 3;
  // A chain given in reverse file order plus an independent task.
  for (int i = 0; i < 5; ++i) {
    Task t;
    t.id = i;
    t.gpu = i % 3;
    if (i < 4) t.after = {i + 1};
    w.tasks.push_back(t);
  }
  w.tasks[4].after.clear();
  const auto order = topological_order(w);
  EXPECT_EQ(order, (std::vector<int>{4, 3, 2, 1, 0}));
  EXPECT_TRUE(find_cycle(w).empty());
  w.tasks[4].after = {0};
  EXPECT_TRUE(topological_order(w).empty());
  EXPECT_EQ(find_cycle(w).size(), 5u);
}

}  // namespace
}  // namespace flux::workload
