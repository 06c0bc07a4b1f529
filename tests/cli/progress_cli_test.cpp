// Progress on stderr: results (stdout and every output file) are the same with and without
// --quiet; a stderr that is not a terminal gets plain lines; a terminal gets a live line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;

using testing::kFabric;
using testing::kScenario;
const char* const kOutputs[] = {"summary.json",   "circuits.csv",          "flows.csv",
                                "nic_buffer.csv", "circuit-schedule.json", "timeline.json"};

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

class ProgressCli : public testing::CliTest {
 protected:
  static std::string simulate(const std::string& scheduler, const std::string& out) {
    return "simulate --scenario " + kScenario + " --fabric " + kFabric + " --scheduler " +
           scheduler + " -o " + out;
  }
  // Runs `args` with stderr on a pseudo-terminal (util-linux `script`), stdout to a file; returns
  // what the terminal showed.
  std::string on_terminal(const std::string& args) const {
    const std::string inner = "'" FLUX_BINARY "' " + args + " 2>&1 >/dev/null";
    const std::string cmd = "cd '" + path("").string() + "' && script -qec \"" + inner +
                            "\" /dev/null >tty.txt 2>&1 </dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return slurp(path("tty.txt"));
  }
};

TEST_F(ProgressCli, QuietChangesNeitherStdoutNorTheOutputFiles) {
  const auto loud = flux(simulate("rotornet", "loud"));
  const auto quiet = flux("--quiet " + simulate("rotornet", "quiet"));
  const auto quiet_after = flux(simulate("rotornet", "quiet2") + " -q");  // after the subcommand
  ASSERT_EQ(loud.code, 0) << loud.err;
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  ASSERT_EQ(quiet_after.code, 0) << quiet_after.err;
  // The summary line names the output folder; the rest must match byte for byte.
  auto strip = [](std::string s, const std::string& dir) {
    return s.replace(s.find("wrote " + dir), 6 + dir.size(), "wrote");
  };
  EXPECT_EQ(strip(loud.out, "loud"), strip(quiet.out, "quiet"));
  EXPECT_EQ(strip(loud.out, "loud"), strip(quiet_after.out, "quiet2"));
  // Files match byte for byte, but for the summary's provenance (command line, date).
  const auto summary = [&](const std::string& dir) {
    auto doc = nlohmann::json::parse(slurp(path(dir + "/summary.json")));
    doc.erase("provenance");
    return doc;
  };
  EXPECT_EQ(summary("loud"), summary("quiet"));
  for (const std::string file : kOutputs) {
    if (file == "summary.json") continue;
    EXPECT_EQ(slurp(path("loud/" + file)), slurp(path("quiet/" + file))) << file;
  }
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet_after.err, "");
}

TEST_F(ProgressCli, PlainLinesWhenStderrIsNotATerminal) {
  const auto sim = flux(simulate("rotornet", "out"));
  ASSERT_EQ(sim.code, 0) << sim.err;
  for (const char* stage : {"rotornet > simulate ", "replay ", "write outputs 6/6 (100%) done"})
    EXPECT_TRUE(has(sim.err, stage)) << stage << " not in:\n" << sim.err;
  const auto cosched = flux("cosched --scenario " + kScenario + " --fabric " + kFabric);
  ASSERT_EQ(cosched.code, 0) << cosched.err;
  for (const char* stage :
       {"flux > first incumbent done", "flux > lower bound done", "incumbent ", "bound ", "gap "})
    EXPECT_TRUE(has(cosched.err, stage)) << stage << " not in:\n" << cosched.err;
  for (const std::string& err : {sim.err, cosched.err}) {
    EXPECT_EQ(std::count(err.begin(), err.end(), '\r'), 0) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\x1b'), 0) << err;
    EXPECT_TRUE(err.ends_with("\n")) << err;
  }
}

// A bad input still prints exactly its one error line, whatever stage was open.
TEST_F(ProgressCli, AnErrorPrintsOnlyItsLine) {
  expect_rejected("simulate --scenario " + kScenario + " --fabric " + kFabric +
                      " --scheduler static --topology 0-1 -o out.json",
                  "topology");
}

TEST_F(ProgressCli, LiveLineOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no `script` (util-linux) to run under a pseudo-terminal";
  const std::string tty = on_terminal(simulate("rotornet", "out"));
  EXPECT_TRUE(has(tty, "\rrotornet")) << tty;  // redrawn in place
  EXPECT_TRUE(has(tty, "\x1b[K")) << tty;      // and the rest of the line cleared
  EXPECT_TRUE(has(tty, "replay 0/")) << tty;   // a stage is shown as it starts
  EXPECT_TRUE(has(tty, "write outputs 6/6 (100%) done in")) << tty;
  EXPECT_EQ(on_terminal("--quiet " + simulate("rotornet", "out2")), "");
}

}  // namespace
}  // namespace flux
