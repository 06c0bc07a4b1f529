// The workload commands through the real binary (each test in its own temporary directory).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "matrix/demand.hpp"
#include "support/cli.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/workload_io.hpp"

namespace flux {
namespace {

using testing::CliTest;

using testing::kData;
using testing::kScenario;

class WorkloadCli : public CliTest {};

TEST_F(WorkloadCli, GenerateStatsDemand) {
  ASSERT_EQ(flux("workload generate --scenario " + kScenario + " -o w.json").code, 0);
  const workload::Workload wl = workload::read_workload(path("w.json").string());
  EXPECT_EQ(wl.gpus, 8);
  EXPECT_EQ(flux("workload stats w.json --json").code, 0);
  ASSERT_EQ(flux("workload demand w.json --phase dp -o d.json").code, 0);
  const matrix::Demand dm = matrix::read_demand(path("d.json").string());
  EXPECT_EQ(dm.unit, matrix::DemandUnit::bytes);
  EXPECT_GT(dm.matrix(0, 4), 1e9);
  ASSERT_EQ(flux("workload flows --scenario " + kScenario + " -o f.csv").code, 0);
}

// A command publishes all its outputs or none: the workload is not left behind when the demand
// file cannot be written.
TEST_F(WorkloadCli, FailingLaterOutputLeavesNoEarlierOutputBehind) {
  const testing::CliResult r =
      flux("workload generate --scenario " + kScenario + " -o w.json --demand nodir/d.json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("nodir/d.json"), std::string::npos) << r.err;
  EXPECT_EQ(stray_files(), 0);
}

TEST_F(WorkloadCli, ImportsAstraText) {
  ASSERT_EQ(
      flux("workload import --astra " + kData + "/workload/astra_hybrid.txt -o astra.json").code,
      0);
  const workload::Workload astra = workload::read_workload(path("astra.json").string());
  EXPECT_EQ(astra.gpus, 4);
  EXPECT_GT(astra.tasks.size(), 20u);
}

// The process groups of --comm-groups reach the importer: each pair's all-reduce stays inside
// the pair (without the file every collective would wait for all four ranks and never proceed).
TEST_F(WorkloadCli, ImportUsesTheCommGroupsFile) {
  for (int r = 0; r < 4; ++r) {
    workload::ChakraTrace t;
    workload::ChakraNode ar;
    ar.id = 1;
    ar.name = "ar";
    ar.type = static_cast<int>(workload::ChakraNodeType::comm_coll);
    ar.attrs = {workload::chakra_int("comm_type", 0), workload::chakra_int("comm_size", 1000),
                workload::chakra_text("pg_name", r < 2 ? "1" : "2")};
    t.nodes = {ar};
    write("pg." + std::to_string(r) + ".et", encode_chakra(t));
  }
  write("groups.json", R"({"1": [0, 1], "2": [2, 3]})");
  const testing::CliResult r =
      flux("workload import --chakra pg --comm-groups groups.json -o pg.json");
  ASSERT_EQ(r.code, 0) << r.err;
  const workload::Workload w = workload::read_workload(path("pg.json").string());
  ASSERT_EQ(w.tasks.size(), 2u * 2 * 2);  // 2 pairs x 2 ranks x 2(p-1) ring steps
  for (const workload::Task& t : w.tasks)
    EXPECT_EQ(t.src / 2, t.dst / 2) << t.src << " -> " << t.dst;
  expect_rejected("workload import --chakra pg --comm-groups " +
                      write("bad.json", R"({"1": [0, 1], "3": [2, 3]})") + " -o x.json",
                  "pg_name '2'");
}

// generate -> export --chakra -> import gives the same DAG: tasks, bytes, edges.
TEST_F(WorkloadCli, ExportImportRoundTrip) {
  ASSERT_EQ(flux("workload generate --scenario " + kScenario + " -o w.json").code, 0);
  const testing::CliResult e = flux("workload export w.json --chakra tr");
  ASSERT_EQ(e.code, 0) << e.err;
  ASSERT_TRUE(exists("tr.0.et"));
  ASSERT_EQ(flux("workload import --chakra tr -o back.json").code, 0);
  const workload::Workload w = workload::read_workload(path("w.json").string());
  const workload::Workload back = workload::read_workload(path("back.json").string());
  ASSERT_EQ(back.gpus, w.gpus);
  ASSERT_EQ(back.tasks.size(), w.tasks.size());
  std::map<std::int64_t, const workload::Task*> by_id;
  for (const workload::Task& t : back.tasks) by_id[t.id] = &t;
  auto edges = [](const workload::Workload& wl, const workload::Task& t) {
    std::set<std::int64_t> ids;
    for (int p : t.after) ids.insert(wl.tasks[static_cast<std::size_t>(p)].id);
    return ids;
  };
  for (const workload::Task& t : w.tasks) {
    ASSERT_TRUE(by_id.count(t.id)) << t.id;
    const workload::Task& b = *by_id[t.id];
    EXPECT_EQ(b.kind, t.kind);
    EXPECT_EQ(b.bytes, t.bytes);
    EXPECT_EQ(b.duration, t.duration);
    EXPECT_EQ(edges(back, b), edges(w, t)) << t.name;
  }
}

TEST_F(WorkloadCli, BadInputExitsWithTwoNamingTheField) {
  const std::string base = R"({"format": "flux.scenario/1", "hardware": {"gpu": "a100"},
      "training": {"micro_batch_size": 1, "global_batch_size": 2, "seq_length": 2048},)";
  const std::string out = " -o x.json";
  expect_rejected("workload generate --scenario " +
                      write("s1.json", base + R"("model": {"preset": "llama3-8b"},
                     "parallelism": {"world_size": 6, "tensor_model_parallel_size": 4}})") +
                      out,
                  "/parallelism/world_size");
  expect_rejected("workload generate --scenario " +
                      write("s2.json", base + R"("model": {"preset": "llama-9"},
                     "parallelism": {"world_size": 8}})") +
                      out,
                  "/model/preset");
  expect_rejected("workload generate --scenario " +
                      write("s3.json", base + R"("model": {"preset": "llama3-8b", "num_layers": 3},
                     "parallelism": {"world_size": 8, "pipeline_model_parallel_size": 2}})") +
                      out,
                  "/model/num_layers");
  expect_rejected("workload import --chakra " + std::string("missing") + out, "cannot open");
  write("trunc.0.et", std::string("\x02\x0a\x05\x85", 4));
  expect_rejected("workload import --chakra " + std::string("trunc") + out, "byte");
  expect_rejected("workload stats " + write("w.json", R"({"format": "flux.workload/1", "gpus": 2,
      "tasks": [{"id": 1, "kind": "send", "src": 0, "dst": 0, "bytes": 1, "after": []}]})"),
                  "/tasks/0/dst");
  EXPECT_FALSE(exists("x.json"));
}

}  // namespace
}  // namespace flux
