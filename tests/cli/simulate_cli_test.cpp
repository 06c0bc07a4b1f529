#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace flux {
namespace {

namespace fs = std::filesystem;

const std::string kScenario =
    std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json";

fs::path scratch() {
  const fs::path d = fs::temp_directory_path() / "flux_simulate_cli_test";
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Exit code and stderr of `flux <args>`.
std::pair<int, std::string> flux_cli(const std::string& args) {
  const fs::path err = scratch() / "stderr.txt";
  const int status = std::system((std::string(FLUX_BINARY) + " " + args + " > " +
                                  (scratch() / "stdout.txt").string() + " 2> " + err.string())
                                     .c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
}

std::string fabric_file(const std::string& name, int gpus, int ocs, const std::string& tau) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << R"({"format": "flux.fabric/1", "gpus": )" << gpus << R"(, "ocs": )" << ocs
                   << R"(, "link_rate": 100e9, "latency": 0, "reconfig_delay": )" << tau
                   << R"(, "circuit": "duplex", "initial_config_free": false})";
  return p.string();
}

class SimulateCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(flux_cli("workload generate --scenario " + kScenario + " -o " + workload()).first, 0);
  }
  static std::string workload() { return (scratch() / "llama8.json").string(); }
  static std::string simulate(const std::string& fabric, const std::string& rest) {
    return "simulate --workload " + workload() + " --fabric " + fabric + " " + rest;
  }
};

TEST_F(SimulateCli, EverySchedulerOnThePaperScenarioWritesAllOutputs) {
  const std::string f = fabric_file("f.json", 8, 2, "1e-5");
  for (const char* s : {"ideal", "rotornet", "rotornet-vlb", "bvn", "spectra-phase"}) {
    const fs::path out = scratch() / s;
    auto [code, err] =
        flux_cli(simulate(f, std::string("--scheduler ") + s + " -o " + out.string()));
    ASSERT_EQ(code, 0) << s << ": " << err;
    auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
    EXPECT_EQ(summary["format"], "flux.summary/1");
    EXPECT_GE(summary["iteration_time"].get<double>(), summary["lower_bound"].get<double>()) << s;
    EXPECT_DOUBLE_EQ(summary["bytes_delivered"].get<double>(),
                     summary["bytes_injected"].get<double>());
    auto trace = nlohmann::json::parse(slurp(out / "timeline.json"));
    EXPECT_GT(trace["traceEvents"].size(), 1000u) << s;
    for (const char* file :
         {"circuits.csv", "flows.csv", "nic_buffer.csv", "circuit-schedule.json"})
      EXPECT_TRUE(fs::exists(out / file)) << s << " " << file;
  }
}

TEST_F(SimulateCli, StaticFailsClearlyWhenTwoPortsCannotHoldTpAndDp) {
  auto [code, err] = flux_cli(simulate(fabric_file("f.json", 8, 2, "1e-5"),
                                       "--scheduler static -o " + (scratch() / "st").string()));
  EXPECT_EQ(code, 2);
  EXPECT_NE(err.find("which no OCS of the static topology connects"), std::string::npos) << err;
}

TEST_F(SimulateCli, SameInputGivesByteIdenticalOutputAndReplaysToTheSameSummary) {
  const std::string f = fabric_file("f.json", 8, 2, "1e-4");
  const fs::path a = scratch() / "det-a", b = scratch() / "det-b", r = scratch() / "det-r";
  ASSERT_EQ(flux_cli(simulate(f, "--scheduler rotornet-vlb -o " + a.string())).first, 0);
  ASSERT_EQ(flux_cli(simulate(f, "--scheduler rotornet-vlb -o " + b.string())).first, 0);
  for (const char* file : {"summary.json", "circuits.csv", "flows.csv", "nic_buffer.csv",
                           "circuit-schedule.json", "timeline.json"})
    EXPECT_EQ(slurp(a / file), slurp(b / file)) << file;
  auto [code, err] = flux_cli(
      simulate(f, "--schedule " + (a / "circuit-schedule.json").string() + " -o " + r.string()));
  ASSERT_EQ(code, 0) << err;
  auto x = nlohmann::json::parse(slurp(a / "summary.json"));
  auto y = nlohmann::json::parse(slurp(r / "summary.json"));
  for (const char* k : {"iteration_time", "peak_nic_buffer", "mean_nic_buffer", "reconfigurations",
                        "circuit_utilization"})
    EXPECT_EQ(x[k], y[k]) << k;
}

TEST_F(SimulateCli, InfeasibleReplayIsRejectedNamingTaskAndPort) {
  const std::string f = fabric_file("f.json", 8, 2, "1e-5");
  const fs::path a = scratch() / "inf";
  ASSERT_EQ(flux_cli(simulate(f, "--scheduler spectra-phase -o " + a.string())).first, 0);
  auto s = nlohmann::json::parse(slurp(a / "circuit-schedule.json"));
  s["circuits"].push_back({{"switch", 0}, {"a", 0}, {"b", 5}, {"up", 0.0}, {"down", 1.0}});
  const fs::path bad = scratch() / "bad-schedule.json";
  std::ofstream(bad) << s.dump();
  auto [code, err] = flux_cli(simulate(f, "--schedule " + bad.string() + " -o " + a.string()));
  EXPECT_EQ(code, 2);
  EXPECT_NE(err.find("port (gpu 0, ocs 0)"), std::string::npos) << err;
  EXPECT_NE(err.find("violations"), std::string::npos) << err;
  s["messages"][0]["task"] = 123456789;
  std::ofstream(bad) << s.dump();
  auto [code2, err2] = flux_cli(simulate(f, "--schedule " + bad.string() + " -o " + a.string()));
  EXPECT_EQ(code2, 2);
  EXPECT_NE(err2.find("no task 123456789"), std::string::npos) << err2;
}

TEST_F(SimulateCli, BadInputExitsWithCodeTwo) {
  const std::string out = " -o " + (scratch() / "bad").string();
  const std::string good = fabric_file("f.json", 8, 2, "1e-5");
  const std::pair<std::string, std::string> cases[] = {
      {simulate(fabric_file("g4.json", 4, 2, "1e-5"), "--scheduler rotornet" + out), "/gpus"},
      {simulate(fabric_file("s0.json", 8, 0, "1e-5"), "--scheduler rotornet" + out), "/ocs"},
      {simulate(fabric_file("neg.json", 8, 2, "-1e-5"), "--scheduler rotornet" + out),
       "/reconfig_delay"},
      {simulate(good, "--scheduler warp-drive" + out), "--scheduler"},
      {simulate(good, "--scheduler rotornet --bogus 1" + out), "bogus"},
      {simulate(good, "--scheduler rotornet --slot 10parsecs" + out), "--slot"},
      {simulate(good, "" + out), "--scheduler"},
  };
  for (const auto& [args, needle] : cases) {
    auto [code, err] = flux_cli(args);
    EXPECT_EQ(code, 2) << args;
    EXPECT_NE(err.find(needle), std::string::npos) << args << " -> " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}

}  // namespace
}  // namespace flux
