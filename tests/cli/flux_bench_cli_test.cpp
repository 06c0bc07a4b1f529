#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;

class FluxBenchCli : public testing::CliTest {
 protected:
  testing::CliResult bench(const std::string& schedulers, const std::string& extra = "") const {
    return flux("bench flux --layers 8 --taus 100us --time-limit 5s --out-dir out --schedulers " +
                schedulers + " " + extra);
  }
};

// Bad option values exit 2 with one line naming the option, before anything runs: they were an
// internal error (--layers a, an unwritable --out-dir) or a run of NaN rows (empty lists), and
// the flag of a scheduler the run did not select was not checked at all.
TEST_F(FluxBenchCli, BadOptionsAreRejectedUpFront) {
  const std::string run = "bench flux --schedulers static ";
  expect_rejected(run + "--layers a", "--layers: positive layer counts, got 'a'");
  expect_rejected(run + "--layers 8,0", "--layers: positive layer counts, got '0'");
  expect_rejected(run + "--layers ''", "--layers: at least one layer count");
  expect_rejected(run + "--taus ''", "--taus: at least one reconfiguration delay");
  expect_rejected(run + "--taus ,", "--taus: at least one reconfiguration delay");
  expect_rejected(run + "--bvn-frame -1tau",
                  "--bvn-frame: a duration such as '5ms' or a multiple "
                  "of the reconfiguration delay such as '100tau', got "
                  "'-1tau'");
  testing::spit(path("file.txt"), "a file, not a folder");
  expect_rejected(run + "--layers 8 --taus 1us --out-dir file.txt/out",
                  "file.txt/out: --out-dir: a folder that can be created and written to");
}

TEST_F(FluxBenchCli, SaysSoWhenNoPeriodicSchedulerRan) {
  const auto r = bench("flux,ideal");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("no periodic scheduler"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("flux vs"), std::string::npos) << r.out;
}

// One line per periodic scheduler that ran, with the iteration, buffer and eager ratios; "best"
// only when there is more than one to choose from.
TEST_F(FluxBenchCli, PrintsRatiosAgainstEachPeriodicScheduler) {
  const auto r = bench("flux,rotornet");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text : {"flux vs", "shorter iteration", "less peak NIC buffer", "(eager metric)",
                           "timetable", "ready"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
  std::istringstream lines(r.out);
  int ratio_lines = 0;
  for (std::string l; std::getline(lines, l);)  // the table row says "ready", the ratio row not
    if (l.rfind("rotornet ", 0) == 0 && l.find("ready") == std::string::npos)
      ratio_lines += std::count(l.begin(), l.end(), 'x') == 3;
  EXPECT_EQ(ratio_lines, 1) << r.out;
  EXPECT_EQ(r.out.find("best periodic"), std::string::npos) << r.out;
}

// Flux streams at most one message per OCS port: its peak is 2 OCS × W, and W follows
// --nic-window.
TEST_F(FluxBenchCli, NicWindowScalesFluxPeak) {
  const auto r = bench("flux", "--nic-window 2us");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream csv(slurp(path("out/flux_bench.csv")));
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_NE(header.find("posting,iteration_time_s,peak_nic_buffer_B"), std::string::npos);
  EXPECT_NE(row.find(",flux,timetable,"), std::string::npos) << row;
  EXPECT_NE(row.find(",400000,"), std::string::npos) << row;  // 2 × 100 GB/s × 2 µs
  EXPECT_EQ(bench("flux", "--nic-window=-1us").code, 2);
}

}  // namespace
// --from-csv redraws the figures of an earlier run's CSV without running anything: the same
// SVGs, byte for byte, as the run itself wrote (so committed figures can follow the renderer).
TEST_F(FluxBenchCli, FromCsvRedrawsTheSameFigures) {
  ASSERT_EQ(bench("flux,ideal,static").code, 0);
  const auto r = flux("bench flux --from-csv out/flux_bench.csv --out-dir re");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* svg : {"iteration_time_8l.svg", "peak_nic_buffer_8l.svg"}) {
    const std::string ran = slurp(path(std::string("out/") + svg));
    EXPECT_NE(ran.find(">ideal</text>"), std::string::npos) << svg;
    EXPECT_EQ(slurp(path(std::string("re/") + svg)), ran) << svg;
  }
  EXPECT_FALSE(exists("re/flux_bench.csv"));  // figures only
}

TEST_F(FluxBenchCli, FromCsvRejectsAFileThatIsNotABenchCsv) {
  testing::spit(path("other.csv"), "layers,tau_s\n8,1e-06\n");
  expect_rejected("bench flux --from-csv other.csv --out-dir re",
                  "other.csv: line 1: a column named \"scheduler\"");
  const std::string header = "layers,tau_s,scheduler,iteration_time_s,peak_nic_buffer_B,failure\n";
  testing::spit(path("bad.csv"), header + "8,1e-06,flux,0.06,200000,\n8,soon,flux,0.06,1,\n");
  expect_rejected("bench flux --from-csv bad.csv --out-dir re",
                  "bad.csv: line 3, column tau_s: a finite number, found \"soon\"");
  testing::spit(path("empty.csv"), header);
  expect_rejected("bench flux --from-csv empty.csv --out-dir re",
                  "empty.csv: line 2: at least one row after the header");
}

}  // namespace flux
