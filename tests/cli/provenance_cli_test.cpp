// Every summary.json, matrix schedule and bench CSV records how to reproduce it: the provenance
// block (build, command line, every option, solver, SHA-256 of each input, date, host), and two
// runs agree on everything else.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;
using testing::spit;

using testing::kFabric;
using testing::kScenario;

class ProvenanceCli : public testing::CliTest {
 protected:
  nlohmann::json json(const std::string& file) const {
    return nlohmann::json::parse(slurp(path(file)));
  }
  // What `sha256sum` prints for the file: the reference the block must agree with.
  static std::string sha256sum(const std::string& file) {
    std::FILE* p = ::popen(("sha256sum '" + file + "'").c_str(), "r");
    char buffer[65] = {};
    const std::size_t n = p ? std::fread(buffer, 1, 64, p) : 0;
    if (p) ::pclose(p);
    return std::string(buffer, n);
  }
  // The block's fields every output has, whatever the command.
  static void expect_block(const nlohmann::json& p, const std::string& command) {
    EXPECT_FALSE(p["flux_version"].get<std::string>().empty());
    EXPECT_FALSE(p["git_commit"].get<std::string>().empty());
    ASSERT_GE(p["command_line"].size(), 2u);
    EXPECT_EQ(p["command_line"][1], command);
    EXPECT_EQ(p["solver"]["name"], "CBC");
    EXPECT_TRUE(std::regex_match(p["solver"]["version"].get<std::string>(),
                                 std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")))
        << p["solver"];
    EXPECT_TRUE(std::regex_match(p["date"].get<std::string>(),
                                 std::regex("20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:"
                                            "[0-6][0-9]Z")))
        << p["date"];
    EXPECT_FALSE(p["host"].get<std::string>().empty());
  }
  void expect_input(const nlohmann::json& p, const std::string& file) const {
    for (const auto& in : p["inputs"])
      if (in["path"] == file) {
        EXPECT_EQ(in["sha256"], sha256sum(file.front() == '/' ? file : path(file).string()));
        return;
      }
    ADD_FAILURE() << file << " not among the inputs: " << p["inputs"];
  }
};

TEST_F(ProvenanceCli, SimulateRecordsInputsOptionsAndSeedAndNothingElseDiffers) {
  ASSERT_EQ(flux("workload generate --scenario " + kScenario + " -o w.json").code, 0);
  for (const char* out : {"a", "b"}) {
    const auto r = flux("simulate --workload w.json --fabric " + kFabric +
                        " --scheduler rotornet --seed 7 -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  const nlohmann::json a = json("a/summary.json"), b = json("b/summary.json");
  const nlohmann::json& p = a["provenance"];
  expect_block(p, "simulate");
  expect_input(p, "w.json");
  expect_input(p, kFabric);
  EXPECT_EQ(p["options"]["--scheduler"], "rotornet");
  EXPECT_EQ(p["options"]["--seed"], "7");
  EXPECT_EQ(p["options"]["--time-limit"], "60s");  // defaults are echoed too
  EXPECT_EQ(p["options"]["--no-prune"], false);
  nlohmann::json x = a, y = b;
  x.erase("provenance");
  y.erase("provenance");
  EXPECT_EQ(x, y);
}

TEST_F(ProvenanceCli, CoschedSummaryHasTheBlock) {
  const auto r = flux("cosched --scenario " + kScenario + " --fabric " + kFabric +
                      " --scheduler flux-greedy --summary s.json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json p = json("s.json")["provenance"];
  expect_block(p, "cosched");
  expect_input(p, kScenario);
  expect_input(p, kFabric);
}

// The schedule file carries the block and is still read and verified as before.
TEST_F(ProvenanceCli, MatrixScheduleHasTheBlockAndStillVerifies) {
  ASSERT_EQ(flux("matrix generate gpt -o g.json").code, 0);
  ASSERT_EQ(flux("matrix schedule --demand g.json --ocs 4 --tau 0.01 -o s.json").code, 0);
  const nlohmann::json p = json("s.json")["provenance"];
  expect_block(p, "matrix");
  EXPECT_EQ(p["command_line"][2], "schedule");
  expect_input(p, "g.json");
  EXPECT_EQ(flux("matrix verify --demand g.json --schedule s.json").code, 0);
}

// A bench CSV stays plain CSV; its sidecar names it, hashes it and holds the block.
TEST_F(ProvenanceCli, MatrixBenchCsvHasASidecar) {
  const auto r = flux(
      "matrix bench --workloads synthetic --ocs 4 --taus 0.01 --trials 1 "
      "--algorithms spectra --out-dir mb");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(path("mb/matrix-bench.csv")).rfind("workload,", 0), 0u);
  const nlohmann::json meta = json("mb/matrix-bench.csv.meta.json");
  EXPECT_EQ(meta["format"], "flux.provenance/1");
  EXPECT_EQ(meta["file"], "matrix-bench.csv");
  EXPECT_EQ(meta["sha256"], sha256sum(path("mb/matrix-bench.csv").string()));
  expect_block(meta["provenance"], "matrix");
  EXPECT_EQ(meta["provenance"]["options"]["--ocs"], nlohmann::json::array({"4"}));
}

}  // namespace
}  // namespace flux
