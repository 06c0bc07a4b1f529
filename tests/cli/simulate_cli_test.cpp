#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;
using testing::spit;

using testing::kData;
using testing::kScenario;

// Each test generates the Flux paper's 8-GPU, 8-layer workload in its own directory.
class SimulateCli : public testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    ASSERT_EQ(flux("workload generate --scenario " + kScenario + " -o llama8.json").code, 0);
  }
  // `extra` is spliced into the object as is, e.g. `"nic_window": 2e-6, `.
  std::string fabric(const std::string& name, int gpus, int ocs, const std::string& tau,
                     const std::string& extra = "") const {
    return write_fabric(name, {.gpus = gpus, .ocs = ocs, .tau = tau, .extra = extra});
  }
  static std::string simulate(const std::string& fabric, const std::string& rest) {
    return "simulate --workload llama8.json --fabric " + fabric + " " + rest;
  }
  nlohmann::json json(const std::string& file) const {
    return nlohmann::json::parse(slurp(path(file)));
  }
};

TEST_F(SimulateCli, EverySchedulerOnThePaperScenarioWritesAllOutputs) {
  const std::string f = fabric("f.json", 8, 2, "1e-5");
  for (const std::string s : {"ideal", "rotornet", "rotornet-vlb", "bvn", "spectra-phase"}) {
    testing::CliResult r = flux(simulate(f, "--scheduler " + s + " -o " + s));
    ASSERT_EQ(r.code, 0) << s << ": " << r.err;
    auto summary = json(s + "/summary.json");
    EXPECT_EQ(summary["format"], "flux.summary/1");
    EXPECT_GE(summary["iteration_time"].get<double>(), summary["lower_bound"].get<double>()) << s;
    const double injected = summary["bytes_injected"].get<double>();
    EXPECT_NEAR(summary["bytes_delivered"].get<double>(), injected, 1e-9 * injected) << s;
    EXPECT_GT(json(s + "/timeline.json")["traceEvents"].size(), 1000u) << s;
    for (const char* file :
         {"circuits.csv", "flows.csv", "nic_buffer.csv", "circuit-schedule.json"})
      EXPECT_TRUE(exists(s + "/" + file)) << s << " " << file;
  }
}

// A trace imported on the fly runs as the file `flux workload import` writes from it: the same
// summary but for the workload's name, and its provenance hashes the files read (each rank's
// trace of a Chakra set).
TEST_F(SimulateCli, ATraceSimulatesAsItsImportedWorkloadFile) {
  const std::string astra = kData + "/workload/astra_hybrid.txt";
  ASSERT_EQ(flux("workload import --astra " + astra + " -o astra.json").code, 0);
  const std::string f4 = fabric("f4.json", 4, 2, "1e-5");
  for (const std::string s : {"ideal", "rotornet", "flux-greedy"}) {
    ASSERT_EQ(flux("simulate --workload astra.json --fabric " + f4 + " --scheduler " + s +
                   " -o file-" + s)
                  .code,
              0);
    const testing::CliResult r =
        flux("simulate --astra " + astra + " --fabric " + f4 + " --scheduler " + s + " -o " + s);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("imported "), std::string::npos) << r.out;
    nlohmann::json direct = json(s + "/summary.json"), file = json("file-" + s + "/summary.json");
    EXPECT_EQ(direct["scenario"]["workload"], astra);
    EXPECT_EQ(direct["provenance"]["inputs"][0]["path"], astra);
    EXPECT_EQ(direct["provenance"]["inputs"][1]["path"], f4);
    for (nlohmann::json* j : {&direct, &file}) {
      j->erase("provenance");
      (*j)["scenario"].erase("workload");
    }
    EXPECT_EQ(direct, file) << s;
    for (const char* out : {"flows.csv", "circuits.csv", "nic_buffer.csv"})
      EXPECT_EQ(slurp(path(s + "/" + out)), slurp(path("file-" + s + "/" + out))) << s << out;
  }
  const std::string prefix = kData + "/traces/chakra/mb_all_reduce_8/all_reduce";
  const std::string f8 = fabric("f8.json", 8, 2, "1e-5");
  ASSERT_EQ(
      flux("simulate --chakra " + prefix + " --fabric " + f8 + " --scheduler ideal -o ch").code, 0);
  const nlohmann::json inputs = json("ch/summary.json")["provenance"]["inputs"];
  ASSERT_EQ(inputs.size(), 9u);  // eight ranks and the fabric
  EXPECT_EQ(inputs[7]["path"], prefix + ".7.et");
  expect_rejected("simulate --fabric " + f8 + " --scheduler ideal -o x",
                  "--workload: exactly one of --workload FILE, --scenario FILE, --chakra PREFIX "
                  "or --astra FILE");
  expect_rejected(simulate(f4, "--astra " + astra + " --scheduler ideal -o x"),
                  "--workload excludes --astra");
  expect_rejected(
      "simulate --chakra " + prefix + " --gpus 8 --fabric " + f8 + " --scheduler ideal -o x",
      "--chakra excludes --gpus");
}

// bvn-periodic's frame is a duration or a multiple of τ, both meaning the same frame at this τ,
// echoed as written; a bare number (once read as a multiple of τ) is rejected.
TEST_F(SimulateCli, BvnFrameIsADurationOrAMultipleOfTau) {
  const std::string f = fabric("f.json", 8, 2, "1e-4");
  for (const char* frame : {"100tau", "10ms"}) {
    testing::CliResult r = flux(simulate(
        f, std::string("--scheduler bvn-periodic --bvn-frame ") + frame + " --out-dir " + frame));
    ASSERT_EQ(r.code, 0) << frame << ": " << r.err;
    EXPECT_EQ(json(std::string(frame) + "/summary.json")["scheduler"]["options"]["bvn_frame"],
              frame);
  }
  EXPECT_EQ(json("100tau/summary.json")["iteration_time"],
            json("10ms/summary.json")["iteration_time"]);
  expect_rejected(simulate(f, "--scheduler bvn-periodic --bvn-frame 100 --out-dir x"),
                  "--bvn-frame: a duration such as '5ms' or a multiple of the reconfiguration "
                  "delay such as '100tau', got '100'");
  expect_rejected(simulate(f, "--scheduler bvn-periodic --bvn-frame 0tau --out-dir x"),
                  "--bvn-frame: a value in (0, inf], got 0");
}

// On every track of timeline.json, slices are disjoint or nested (a viewer draws them as a stack):
// a reconfiguration once started 1 ps before the previous circuit on its port came down.
TEST_F(SimulateCli, TimelineSlicesNeverOverlapOnATrack) {
  const std::string f = fabric("f.json", 8, 2, "1e-4");
  for (const std::string s : {"flux", "flux-greedy", "ideal", "rotornet", "rotornet-vlb", "bvn",
                              "bvn-periodic", "spectra-phase"}) {
    testing::CliResult r = flux(simulate(f, "--scheduler " + s + " --time-limit 5s -o " + s));
    ASSERT_EQ(r.code, 0) << s << ": " << r.err;
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
    const nlohmann::json timeline = json(s + "/timeline.json");  // outlives the loop
    for (const auto& e : timeline["traceEvents"]) {
      if (e["ph"] != "X") continue;
      EXPECT_TRUE(e.contains("cat")) << e;
      const double ts = e["ts"].get<double>();
      tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back(
          {ts, ts + e["dur"].get<double>()});
    }
    EXPECT_GT(tracks.size(), 8u) << s;
    const double eps = 1e-7;  // µs: well below the 1 ps the overlap was
    for (auto& [track, slices] : tracks) {
      std::sort(slices.begin(), slices.end(), [](const auto& x, const auto& y) {
        return x.first < y.first || (x.first == y.first && x.second > y.second);
      });
      std::vector<double> open;  // ends of the enclosing slices
      for (const auto& [from, to] : slices) {
        while (!open.empty() && open.back() <= from + eps) open.pop_back();
        if (!open.empty()) {
          EXPECT_LE(to, open.back() + eps)
              << s << " track " << track.first << "/" << track.second << ": [" << from << ", " << to
              << ") crosses an end at " << open.back();
        }
        open.push_back(to);
      }
    }
  }
}

TEST_F(SimulateCli, StaticFailsClearlyWhenTwoPortsCannotHoldTpAndDp) {
  testing::CliResult r = flux(simulate(fabric("f.json", 8, 2, "1e-5"), "--scheduler static -o st"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("which no OCS of the static topology connects"), std::string::npos) << r.err;
}

TEST_F(SimulateCli, SameInputGivesByteIdenticalOutputAndReplaysToTheSameSummary) {
  const std::string f = fabric("f.json", 8, 2, "1e-4");
  ASSERT_EQ(flux(simulate(f, "--scheduler rotornet-vlb -o a")).code, 0);
  ASSERT_EQ(flux(simulate(f, "--scheduler rotornet-vlb -o b")).code, 0);
  for (const char* file :
       {"circuits.csv", "flows.csv", "nic_buffer.csv", "circuit-schedule.json", "timeline.json"})
    EXPECT_EQ(slurp(path(std::string("a/") + file)), slurp(path(std::string("b/") + file))) << file;
  // The summaries differ only in their provenance (the output folder, the date).
  auto x = json("a/summary.json"), y = json("b/summary.json");
  x.erase("provenance");
  y.erase("provenance");
  EXPECT_EQ(x.dump(), y.dump());
  testing::CliResult r = flux(simulate(f, "--schedule a/circuit-schedule.json -o r"));
  ASSERT_EQ(r.code, 0) << r.err;
  y = json("r/summary.json");
  for (const char* k :
       {"iteration_time", "peak_nic_buffer_eager", "reconfigurations", "circuit_utilization"})
    EXPECT_EQ(x[k], y[k]) << k;
  // The file is a timetable: replayed, its hosts post each message at its start.
  EXPECT_EQ(x["scheduler"]["posting"], "ready");
  EXPECT_EQ(y["scheduler"]["posting"], "timetable");
  EXPECT_LE(y["peak_nic_buffer"].get<double>(), x["peak_nic_buffer"].get<double>());
  EXPECT_GT(y["peak_hbm_held"].get<double>(), 0.0);
  EXPECT_EQ(x["peak_hbm_held"].get<double>(), 0.0);
}

// --outputs writes exactly the files it names, each the same as in a full run; a name it does not
// know is bad input naming the flag.
TEST_F(SimulateCli, OutputsWritesOnlyTheNamedFilesUnchanged) {
  const std::string f = fabric("f.json", 8, 2, "1e-5");
  ASSERT_EQ(flux(simulate(f, "--scheduler rotornet -o all")).code, 0);
  testing::CliResult r = flux(simulate(f, "--scheduler rotornet -o some --outputs flows,summary"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* file :
       {"circuits.csv", "nic_buffer.csv", "circuit-schedule.json", "timeline.json"})
    EXPECT_FALSE(exists(std::string("some/") + file)) << file;
  EXPECT_EQ(slurp(path("some/flows.csv")), slurp(path("all/flows.csv")));
  auto x = json("all/summary.json"), y = json("some/summary.json");
  x.erase("provenance");
  y.erase("provenance");
  EXPECT_EQ(x.dump(), y.dump());
  r = flux(simulate(f, "--scheduler rotornet -o bad --outputs summary,timelines"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--outputs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("timelines"), std::string::npos) << r.err;
}

// nic_buffer.csv and the timeline's counter tracks carry the same per-GPU curves as the summary.
TEST_F(SimulateCli, BufferCurvesReachTheSummaryPeak) {
  const std::string f = fabric("f.json", 8, 2, "1e-4", R"("nic_window": 2e-6, )");
  ASSERT_EQ(flux(simulate(f, "--scheduler rotornet -o a")).code, 0);
  auto summary = json("a/summary.json");
  EXPECT_EQ(summary["scenario"]["fabric"]["nic_window"], 2e-6);
  std::istringstream csv(slurp(path("a/nic_buffer.csv")));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "time_s,gpu,nic_B,waiting_B,hbm_held_B");
  double peak = 0, waiting = 0;
  while (std::getline(csv, line)) {
    double t = 0, nic = 0, wait = 0, hbm = 0;
    int gpu = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%d,%lf,%lf,%lf", &t, &gpu, &nic, &wait, &hbm), 5);
    peak = std::max(peak, nic);
    waiting = std::max(waiting, wait);
  }
  // Jumps are sampled after they happen; a peak just before a drop is the only one missed.
  EXPECT_LE(peak, summary["peak_nic_buffer"].get<double>() * (1 + 1e-9));
  EXPECT_GT(peak, 0.5 * summary["peak_nic_buffer"].get<double>());
  EXPECT_NEAR(waiting, summary["peak_waiting_bytes"].get<double>(), 1e-6 * waiting);
  std::size_t counters = 0;
  const auto timeline = json("a/timeline.json");
  for (const auto& e : timeline["traceEvents"]) counters += e["ph"] == "C";
  EXPECT_GT(counters, 100u);
}

TEST_F(SimulateCli, InfeasibleReplayIsRejectedNamingTaskAndPort) {
  const std::string f = fabric("f.json", 8, 2, "1e-5");
  ASSERT_EQ(flux(simulate(f, "--scheduler spectra-phase -o inf")).code, 0);
  auto s = json("inf/circuit-schedule.json");
  s["circuits"].push_back({{"switch", 0}, {"a", 0}, {"b", 5}, {"up", 0.0}, {"down", 1.0}});
  spit(path("bad.json"), s.dump());
  testing::CliResult r = flux(simulate(f, "--schedule bad.json -o out"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("port (gpu 0, ocs 0)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("violations"), std::string::npos) << r.err;
  auto late = json("inf/circuit-schedule.json");
  late["iteration_time"] = late["iteration_time"].get<double>() * 1.001;
  spit(path("late.json"), late.dump());
  r = flux(simulate(f, "--schedule late.json -o out"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("reports an iteration time"), std::string::npos) << r.err;
  s["messages"][0]["task"] = 123456789;
  spit(path("bad.json"), s.dump());
  r = flux(simulate(f, "--schedule bad.json -o out"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no task 123456789"), std::string::npos) << r.err;
}

// --scenario builds the same workload in memory: byte-identical outputs, no workload file.
TEST_F(SimulateCli, ScenarioInMemoryGivesTheSameOutputsAsTheWorkloadFile) {
  const std::string f = fabric("f.json", 8, 2, "1e-4");
  ASSERT_EQ(flux(simulate(f, "--scheduler rotornet -o file")).code, 0);
  testing::CliResult r =
      flux("simulate --scenario " + kScenario + " --fabric " + f + " --scheduler rotornet -o mem");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* file : {"circuits.csv", "flows.csv", "nic_buffer.csv", "circuit-schedule.json"})
    EXPECT_EQ(slurp(path(std::string("file/") + file)), slurp(path(std::string("mem/") + file)))
        << file;
  EXPECT_EQ(json("file/summary.json")["iteration_time"],
            json("mem/summary.json")["iteration_time"]);
}

TEST_F(SimulateCli, BadInputExitsWithCodeTwo) {
  const std::string good = fabric("f.json", 8, 2, "1e-5");
  const std::pair<std::string, std::string> cases[] = {
      {simulate(fabric("g4.json", 4, 2, "1e-5"), "--scheduler rotornet -o x"), "/gpus"},
      {simulate(fabric("s0.json", 8, 0, "1e-5"), "--scheduler rotornet -o x"), "/ocs"},
      {simulate(fabric("neg.json", 8, 2, "-1e-5"), "--scheduler rotornet -o x"), "/reconfig_delay"},
      {simulate(good, "--scheduler warp-drive -o x"), "--scheduler"},
      {simulate(good, "--scheduler rotornet --bogus 1 -o x"), "bogus"},
      {simulate(good, "--scheduler rotornet --slot 10parsecs -o x"), "--slot"},
      {simulate(good, "-o x"), "--scheduler"},
      {"simulate --fabric " + good + " --scheduler rotornet -o x", "--scenario"},
      {simulate(good, "--scenario " + kScenario + " --scheduler rotornet -o x"), "excludes"},
      {simulate(fabric("w1.json", 8, 2, "1e-5", R"("nic_window": -1e-6, )"),
                "--scheduler ideal -o x"),
       "/nic_window"},
      {simulate(fabric("w2.json", 8, 2, "1e-5", R"("nic_window": "1us", )"),
                "--scheduler ideal -o x"),
       "/nic_window"},
      {simulate(fabric("typo.json", 8, 2, "1e-5", R"("nic_windw": 1e-6, )"),
                "--scheduler ideal -o x"),
       "/nic_windw"},
  };
  for (const auto& [args, needle] : cases) expect_rejected(args, needle);
}

// Times beyond the picosecond clock once wrapped around silently (an iteration shorter than its
// own critical path, exit 0): a compute of 1e7 s, or a send on a 1e-300 B/s link.
// Each value is readable (core/limits.hpp), but the iteration would not fit the clock.
TEST_F(SimulateCli, TimesBeyondTheClockRangeAreBadInput) {
  spit(path("long.json"), R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
      {"id": 0, "kind": "compute", "gpu": 0, "duration": 1e6, "after": []},
      {"id": 1, "kind": "send", "src": 0, "dst": 1, "bytes": 1000, "after": [0]}]})");
  spit(path("short.json"), R"({"format": "flux.workload/1", "gpus": 2, "tasks": [
      {"id": 0, "kind": "send", "src": 0, "dst": 1, "bytes": 1000, "after": []}]})");
  write_fabric("slow.json", {.gpus = 2, .ocs = 1, .rate = "1e-3"});
  const std::string f2 = fabric("f2.json", 2, 1, "1e-5");
  const std::pair<std::string, std::string> inputs[] = {{"long.json", f2},
                                                        {"short.json", "slow.json"}};
  for (const char* scheduler : {"ideal", "rotornet", "flux-greedy"}) {
    for (const auto& [w, f] : inputs) {
      const std::string args =
          "simulate --workload " + w + " --fabric " + f + " --scheduler " + scheduler + " -o out";
      const testing::CliResult r = flux(args);
      EXPECT_EQ(r.code, 2) << args << " -> " << r.out << r.err;
      EXPECT_NE(r.err.find("clock range"), std::string::npos) << args << " -> " << r.err;
      EXPECT_NE(r.err.find("/tasks/0"), std::string::npos) << args << " -> " << r.err;
      EXPECT_FALSE(exists("out")) << args;
    }
  }
}

}  // namespace
}  // namespace flux
