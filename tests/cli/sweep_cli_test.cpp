// `flux sweep` through the real binary: bad sweep files, equal tables whatever the worker count
// or the sharding, failures recorded per cell, and a sweep killed midway that resumes with every
// cell complete exactly once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/cli.hpp"

namespace flux {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Json small_sweep() {
  std::ifstream in(testing::kData + "/sweeps/small.json");
  return Json::parse(in);
}

// The merged table without its wall-time column (the one field that differs between runs).
std::string without_wall(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  std::size_t wall = std::string::npos;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream f(line);
    for (std::string x; std::getline(f, x, ',');) fields.push_back(x);
    if (line.back() == ',') fields.push_back("");
    if (wall == std::string::npos)
      wall = static_cast<std::size_t>(std::find(fields.begin(), fields.end(), "wall_s") -
                                      fields.begin());
    if (wall < fields.size()) fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(wall));
    for (const std::string& x : fields) out += x + ",";
    out += "\n";
  }
  return out;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

class SweepCli : public testing::CliTest {
 protected:
  void write(const std::string& name, const Json& j) { testing::spit(path(name), j.dump(1)); }
  std::string merged(const std::string& dir) {
    const testing::CliResult r = flux("sweep merge " + dir + " -o " + dir + ".csv");
    EXPECT_EQ(r.code, 0) << r.err;
    return testing::slurp(path(dir + ".csv"));
  }
  // Cell folders (complete) and partial folders under dir/cells.
  std::pair<int, int> folders(const std::string& dir) const {
    int complete = 0, partial = 0;
    for (const auto& e : fs::directory_iterator(path(dir) / "cells")) {
      const bool is_partial = e.path().filename().string().rfind(".partial-", 0) == 0;
      (is_partial ? partial : complete)++;
      if (!is_partial) {
        EXPECT_TRUE(fs::exists(e.path() / "status.json")) << e.path();
      }
    }
    return {complete, partial};
  }
};

TEST_F(SweepCli, BadSweepFilesExitTwoWithOneLine) {
  struct Case {
    std::function<void(Json&)> edit;
    const char* needle;
  };
  const std::vector<Case> cases = {
      {[](Json& j) { j["axes"][0]["field"] = "scenario/model/nm_layers"; }, "/axes/0/field"},
      {[](Json& j) { j["axes"][1]["values"] = Json::array(); }, "/axes/1/values"},
      {[](Json& j) { j["axes"][0]["values"][0] = "eight"; }, "/axes/0/values/0"},
      {[](Json& j) { j["axes"][2]["values"][0] = "rotonet"; }, "/axes/2/values/0"},
      {[](Json& j) { j["axes"][1]["field"] = "option/warp_speed"; }, "/axes/1/field"},
  };
  for (const Case& c : cases) {
    Json j = small_sweep();
    c.edit(j);
    write("bad.json", j);
    expect_rejected("sweep plan bad.json", std::string("bad.json: ") + c.needle);
    expect_rejected("sweep run bad.json --out out.json", std::string("bad.json: ") + c.needle);
  }
}

TEST_F(SweepCli, PlanCountsCells) {
  Json j = small_sweep();
  j["zip"] = Json::array({Json::array({"layers", "tau_s"})});
  write("zip.json", j);
  const testing::CliResult r = flux("sweep plan zip.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(": 4 cells"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("largest cell"), std::string::npos) << r.out;
}

TEST_F(SweepCli, WorkerCountAndShardsDoNotChangeTheTable) {
  write("s.json", small_sweep());
  ASSERT_EQ(flux("sweep run s.json --out one --jobs 1").code, 0);
  const testing::CliResult two = flux("sweep run s.json --out two --jobs 2");
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_NE(two.out.find("ran 8 cells (0 failed), 0 already complete"), std::string::npos)
      << two.out;
  EXPECT_EQ(count_of(two.err, "; ok "), 8u) << two.err;  // one progress line per cell
  // Three shards into one folder, the middle one chosen by Slurm's variables.
  ASSERT_EQ(flux("sweep run s.json --out shards --shard 0/3").code, 0);
  ::setenv("SLURM_ARRAY_TASK_ID", "1", 1);
  ::setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
  const testing::CliResult middle = flux("sweep run s.json --out shards");
  ::unsetenv("SLURM_ARRAY_TASK_ID");
  ::unsetenv("SLURM_ARRAY_TASK_COUNT");
  ASSERT_EQ(middle.code, 0) << middle.err;
  EXPECT_NE(middle.out.find("shard 1/3: ran 3 cells"), std::string::npos) << middle.out;
  EXPECT_NE(flux("sweep status shards").out.find("8 cells: 6 done, 0 failed, 2 missing"),
            std::string::npos);
  ASSERT_EQ(flux("sweep run s.json --out shards --shard 2/3").code, 0);
  const std::string a = without_wall(merged("one"));
  EXPECT_EQ(count_of(a, "\n"), 9u) << a;
  EXPECT_EQ(count_of(a, ",done,"), 8u) << a;
  EXPECT_EQ(a, without_wall(merged("two")));
  EXPECT_EQ(a, without_wall(merged("shards")));
  EXPECT_NE(a.find("cell,status,layers,tau_s,scheduler,iteration_time_s"), std::string::npos);
}

TEST_F(SweepCli, FailingCellIsRecordedAndTheOthersRun) {
  Json j = small_sweep();
  // 4 GPUs read as a fabric, but the scenario's 8 ranks do not fit it.
  j["axes"] = Json::array(
      {Json{{"name", "gpus"}, {"field", "fabric/gpus"}, {"values", {8, 4}}},
       Json{{"name", "scheduler"}, {"field", "scheduler"}, {"values", Json::array({"rotornet"})}}});
  write("f.json", j);
  const testing::CliResult r = flux("sweep run f.json --out f");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ran 2 cells (1 failed)"), std::string::npos) << r.out;
  EXPECT_NE(flux("sweep status f").out.find("2 cells: 1 done, 1 failed, 0 missing"),
            std::string::npos);
  const std::string csv = merged("f");
  EXPECT_EQ(count_of(csv, ",failed,"), 1u) << csv;
  EXPECT_NE(csv.find("GPU count (4)"), std::string::npos) << csv;  // the one-line error, in the row
  // Complete cells, failed ones included, are not run again.
  EXPECT_NE(flux("sweep run f.json --out f").out.find("ran 0 cells (0 failed), 2 already"),
            std::string::npos);
  // Unless asked: the failed one runs again (and fails again), the done one does not.
  EXPECT_NE(flux("sweep run f.json --out f --retry-failed")
                .out.find("ran 1 cells (1 failed), 1 already complete"),
            std::string::npos);
  EXPECT_EQ(folders("f"), std::make_pair(2, 0));
}

TEST_F(SweepCli, KilledSweepResumesWithEveryCellOnce) {
  Json j = small_sweep();
  j["axes"][0]["values"] = {1, 2, 3, 4};
  j["axes"][1]["values"] = {1e-6, 1e-5, 1e-4};
  write("k.json", j);  // 24 cells
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::chdir(path("").c_str());
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(FLUX_BINARY, FLUX_BINARY, "sweep", "run", "k.json", "--out", "k", "--jobs", "2",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Until two cells are complete (bounded: the test fails rather than hangs).
  for (int i = 0; i < 6000 && (!fs::exists(path("k/cells")) || folders("k").first < 2); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const auto [done, partial] = folders("k");
  EXPECT_EQ(partial, 0) << "a partial cell folder was left behind";
  EXPECT_GE(done, 2);
  EXPECT_LT(done, 24) << "the sweep ended before the signal; nothing was tested";
  const testing::CliResult rerun = flux("sweep run k.json --out k --jobs 2");
  ASSERT_EQ(rerun.code, 0) << rerun.err;
  EXPECT_NE(
      rerun.out.find(fmt::format("ran {} cells (0 failed), {} already complete", 24 - done, done)),
      std::string::npos)
      << rerun.out;
  EXPECT_EQ(folders("k"), std::make_pair(24, 0));
  EXPECT_NE(flux("sweep status k").out.find("24 cells: 24 done, 0 failed, 0 missing"),
            std::string::npos);
}

}  // namespace
}  // namespace flux
