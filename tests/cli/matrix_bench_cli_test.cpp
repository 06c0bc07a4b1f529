// `flux matrix bench` end to end: a small grid, its CSV and figures, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/cli.hpp"

namespace flux {
namespace {

using testing::slurp;

class MatrixBenchCli : public testing::CliTest {
 protected:
  testing::CliResult run(const std::string& args) const { return flux("matrix bench " + args); }
};

TEST_F(MatrixBenchCli, SmallGridWritesTableCsvAndFigures) {
  const testing::CliResult r =
      run("--workloads gpt32,sweep-flows --switches 4 --deltas 0.02,0.04 --trials 1 "
          "--algorithms spectra-ref,bvn --out bench");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("== gpt32"), std::string::npos);
  EXPECT_NE(r.out.find("baseline/spectra-ref:"), std::string::npos);
  EXPECT_NE(r.out.find("0 failures"), std::string::npos);
  // The baseline is added when not listed: 3 algorithms x (2 deltas + 8 sweep points).
  const std::string csv = slurp(path("bench/matrix-bench.csv"));
  EXPECT_EQ(csv.rfind("workload,x,switches,delta,algorithm,", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * (2 + 8));
  EXPECT_NE(csv.find("gpt32,0.02,4,0.02,baseline,1,"), std::string::npos);
  for (const char* svg : {"gpt32-s4.svg", "sweep-flows-s4.svg"}) {
    const std::string text = slurp(path("bench") / svg);
    EXPECT_EQ(text.rfind("<svg", 0), 0u) << svg;
    EXPECT_NE(text.find(">LB</text>"), std::string::npos) << svg;
  }
}

TEST_F(MatrixBenchCli, BadInputIsOneLineExitTwoAndWritesNothing) {
  const std::pair<std::string, std::string> cases[] = {
      {"--trials 0", "--trials"},        {"--switches 0", "--ocs"},
      {"--deltas -0.1", "--tau"},        {"--deltas nan", "--tau"},
      {"--algorithms nosuch", "nosuch"}, {"--workloads nosuch", "nosuch"},
      {"--trials x", "--trials"}};
  for (const auto& [args, needle] : cases) {
    expect_rejected("matrix bench " + args + " --out never", needle);
    EXPECT_FALSE(exists("never")) << args;
  }
  expect_rejected("matrix bench --workloads gpt32 --out /proc/flux/cannot", "--out");
}

// --from-csv redraws the figures of an earlier run's CSV: the same SVGs as the run wrote.
TEST_F(MatrixBenchCli, FromCsvRedrawsTheSameFigures) {
  ASSERT_EQ(run("--workloads gpt32,sweep-flows --ocs 4,16 --taus 0.02,0.04 --trials 1 "
                "--algorithms spectra-ref,bvn --out-dir bench")
                .code,
            0);
  const testing::CliResult r = run("--from-csv bench/matrix-bench.csv --out-dir re");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* svg :
       {"gpt32-s4.svg", "gpt32-s16.svg", "sweep-flows-s4.svg", "sweep-flows-s16.svg"}) {
    const std::string ran = slurp(path("bench") / svg);
    EXPECT_NE(ran.find(">spectra-ref</text>"), std::string::npos) << svg;
    EXPECT_EQ(slurp(path("re") / svg), ran) << svg;
  }
  EXPECT_FALSE(exists("re/matrix-bench.csv"));
}

TEST_F(MatrixBenchCli, FromCsvRejectsAFileThatIsNotABenchCsv) {
  const std::string header =
      "workload,x,switches,delta,algorithm,trials,makespan,lower_bound,makespan_over_lb,"
      "baseline_ratio,seconds,permutations\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"layers,tau_s\n8,1e-06\n", "bad.csv: line 1: a column named \"workload\""},
      {header + "gpt32,0.02,4,0.02,bvn,1,2,1,2,1,0.1,3\nnosuch,0.02,4,0.02,bvn,1,2,1,2,1,0.1,3\n",
       "bad.csv: line 3, column workload: a workload among synthetic"},
      {header + "gpt32,0.02,0,0.02,bvn,1,2,1,2,1,0.1,3\n",
       "bad.csv: line 2, column switches: an integer in [1, 1024], found \"0\""},
      {header + "gpt32,0.02,4,0.02,bvn,1,2,1\n", "bad.csv: line 2: 12 fields like the header"},
  };
  for (const auto& [text, needle] : cases) {
    write("bad.csv", text);
    expect_rejected("matrix bench --from-csv bad.csv --out-dir re", needle);
    EXPECT_FALSE(exists("re"));
  }
}

}  // namespace
}  // namespace flux
