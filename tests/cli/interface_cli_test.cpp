// One vocabulary across the commands: a command group alone prints its usage; the canonical
// spellings (--ocs, --tau, -o/--output for a file, --out-dir for a folder, --workload) work on
// every command that takes the idea, and the old spellings stay as aliases with the same result.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;

using testing::kData;
using testing::kFabric;
using testing::kScenario;

class InterfaceCli : public testing::CliTest {
 protected:
  nlohmann::json without_provenance(const std::string& file) const {
    auto j = nlohmann::json::parse(slurp(path(file)));
    j.erase("provenance");
    return j;
  }
};

TEST_F(InterfaceCli, AGroupAlonePrintsItsUsageAndExitsTwo) {
  const std::vector<std::pair<std::string, std::string>> groups{
      {"", "simulate"}, {"matrix", "schedule"}, {"workload", "import"}, {"bench", "flux-greedy"}};
  for (const auto& [group, listed] : groups) {
    const auto r = flux(group);
    EXPECT_EQ(r.code, 2) << group;
    EXPECT_NE(r.err.find("Subcommands:"), std::string::npos) << group << ": " << r.err;
    EXPECT_NE(r.err.find(listed), std::string::npos) << group << ": " << r.err;
    EXPECT_NE(r.err.find("needs a subcommand"), std::string::npos) << r.err;
  }
  // Anything else is still one line.
  const auto r = flux("matrix --bogus");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.find("Subcommands:"), std::string::npos) << r.err;
}

TEST_F(InterfaceCli, CanonicalAndOldSpellingsGiveTheSameMatrixSchedule) {
  ASSERT_EQ(flux("matrix generate gpt -o g.json").code, 0);
  ASSERT_EQ(flux("matrix schedule --demand g.json --ocs 4 --tau 0.02 -o new.json").code, 0);
  ASSERT_EQ(flux("matrix schedule --demand g.json --switches 4 --delta 0.02 -o old.json").code, 0);
  EXPECT_EQ(without_provenance("new.json"), without_provenance("old.json"));
  EXPECT_EQ(flux("matrix bound --demand g.json -s 4 --tau 0.02").out,
            flux("matrix bound --demand g.json --ocs 4 --delta 0.02").out);
}

TEST_F(InterfaceCli, WorkloadIsAnOptionEverywhereAndOutputsHaveOneName) {
  ASSERT_EQ(flux("workload generate --scenario " + kScenario + " -o w.json").code, 0);
  const auto positional = flux("workload stats w.json");
  const auto option = flux("workload stats --workload w.json");
  ASSERT_EQ(positional.code, 0) << positional.err;
  EXPECT_EQ(positional.out, option.out);
  ASSERT_EQ(
      flux("simulate --workload w.json --fabric " + kFabric + " --scheduler ideal --out-dir sim")
          .code,
      0);
  EXPECT_TRUE(exists("sim/summary.json"));
  ASSERT_EQ(
      flux("cosched --workload w.json --fabric " + kFabric + " --scheduler ideal -o s.json").code,
      0);
  EXPECT_TRUE(exists("s.json"));
}

// Durations take human units: --cycle 1ns is the default 1e-9 s per cycle.
TEST_F(InterfaceCli, CycleTakesATimeWithUnits) {
  const std::string astra = kData + "/workload/astra_hybrid.txt";
  const auto a = flux("workload import --astra " + astra + " --gpus 8 --cycle 1ns -o a.json");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(flux("workload import --astra " + astra + " --gpus 8 --cycle 1e-9 -o b.json").code, 0);
  ASSERT_EQ(flux("workload import --astra " + astra + " --gpus 8 --cycle 2ns -o c.json").code, 0);
  EXPECT_EQ(slurp(path("a.json")), slurp(path("b.json")));
  EXPECT_NE(slurp(path("a.json")), slurp(path("c.json")));
  expect_rejected("workload import --astra " + astra + " --cycle 1parsec -o out.json", "--cycle");
  EXPECT_NE(flux("workload import --help").out.find("=1ns"), std::string::npos);
}

// Every --help names the unit of each duration, rate and size option in its type (TIME, RATE,
// BYTES) and shows no default that misleads: "=[]" for "all", "=0" on a required option.
TEST_F(InterfaceCli, HelpShowsUnitsAndNoMisleadingDefaults) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
      {"run", {"--tau TIME", "--nic-window TIME", "--time-limit TIME"}},
      {"bench flux",
       {"--taus TIMES", "--nic-window TIME", "--time-limit TIME", "--slot TIME",
        "--closure-memory BYTES", "--bvn-frame TIME-OR-TAU=100tau"}},
      {"bench flux-greedy", {"--tau TIME", "--rate RATE"}},
      {"matrix schedule", {"--tau,--delta TIME|NUMBER", "--rate RATE"}},
      {"matrix bound", {"--tau,--delta TIME|NUMBER", "--rate RATE"}},
      {"matrix generate", {"--bytes BYTES"}},
      {"workload import", {"--cycle TIME=1ns"}},
      {"matrix bench", {}},
      {"report", {}},
      {"simulate", {"--frame TIME=0s"}},
      {"cosched", {"--time-limit TIME=60s"}}};
  for (const auto& [cmd, expected] : commands) {
    const auto r = flux(cmd + " --help");
    ASSERT_EQ(r.code, 0) << cmd;
    for (const std::string& e : expected)
      EXPECT_NE(r.out.find(e), std::string::npos) << cmd << ": " << e << "\n" << r.out;
    EXPECT_EQ(r.out.find("=[]"), std::string::npos) << cmd << "\n" << r.out;
    EXPECT_EQ(r.out.find("=0 REQUIRED"), std::string::npos) << cmd << "\n" << r.out;
  }
}

}  // namespace
}  // namespace flux
