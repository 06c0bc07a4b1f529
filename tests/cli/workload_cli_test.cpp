#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "matrix/demand.hpp"
#include "workload/workload_io.hpp"

namespace flux {
namespace {

namespace fs = std::filesystem;

const std::string kExample =
    std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json";

struct Run {
  int code;
  std::string err;
};

fs::path dir() {
  const fs::path d = fs::temp_directory_path() / "flux_workload_cli_test";
  fs::create_directories(d);
  return d;
}

Run flux(const std::string& args) {
  const std::string err = (dir() / "stderr.txt").string();
  const int status = std::system((std::string(FLUX_BINARY) + " " + args + " > " +
                                  (dir() / "stdout.txt").string() + " 2> " + err)
                                     .c_str());
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

std::string write(const std::string& name, const std::string& content) {
  const std::string path = (dir() / name).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(WorkloadCli, GenerateStatsDemand) {
  const std::string w = (dir() / "w.json").string(), d = (dir() / "d.json").string();
  ASSERT_EQ(flux("workload generate --scenario " + kExample + " -o " + w).code, 0);
  const Workload wl = read_workload(w);
  EXPECT_EQ(wl.gpus, 8);
  EXPECT_EQ(flux("workload stats " + w + " --json").code, 0);
  ASSERT_EQ(flux("workload demand " + w + " --phase dp -o " + d).code, 0);
  const Demand dm = read_demand(d);
  EXPECT_EQ(dm.unit, DemandUnit::bytes);
  EXPECT_GT(dm.matrix(0, 4), 1e9);
  ASSERT_EQ(
      flux("workload flows --scenario " + kExample + " -o " + (dir() / "f.csv").string()).code, 0);
}

void expect_bad(const std::string& args, const std::string& words) {
  const Run r = flux(args);
  EXPECT_EQ(r.code, 2) << args << ": " << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
}

TEST(WorkloadCli, BadInputExitsWithTwoNamingTheField) {
  const std::string base = R"({"format": "flux.scenario/1", "hardware": {"gpu": "a100"},
      "training": {"micro_batch_size": 1, "global_batch_size": 2, "seq_length": 2048},)";
  const std::string out = " -o " + (dir() / "x.json").string();
  expect_bad("workload generate --scenario " +
                 write("s1.json", base + R"("model": {"preset": "llama3-8b"},
                     "parallelism": {"world_size": 6, "tensor_model_parallel_size": 4}})") +
                 out,
             "/parallelism/world_size");
  expect_bad("workload generate --scenario " +
                 write("s2.json", base + R"("model": {"preset": "llama-9"},
                     "parallelism": {"world_size": 8}})") +
                 out,
             "/model/preset");
  expect_bad("workload generate --scenario " +
                 write("s3.json", base + R"("model": {"preset": "llama3-8b", "num_layers": 3},
                     "parallelism": {"world_size": 8, "pipeline_model_parallel_size": 2}})") +
                 out,
             "/model/num_layers");
  expect_bad("workload import --chakra " + (dir() / "missing").string() + out, "cannot open");
  write("trunc.0.et", std::string("\x02\x0a\x05\x85", 4));
  expect_bad("workload import --chakra " + (dir() / "trunc").string() + out, "byte");
  expect_bad("workload stats " + write("w.json", R"({"format": "flux.workload/1", "gpus": 2,
      "tasks": [{"id": 1, "kind": "send", "src": 0, "dst": 0, "bytes": 1, "after": []}]})"),
             "/tasks/0/dst");
  EXPECT_FALSE(fs::exists(dir() / "x.json"));
}

}  // namespace
}  // namespace flux
