// `flux matrix bench` end to end: a small grid, its CSV and figures, and bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class MatrixBenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flux-bench-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) const {
    const std::string cmd = std::string(FLUX_BINARY) + " matrix bench " + args + " >" +
                            (dir_ / "stdout").string() + " 2>" + (dir_ / "stderr").string();
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir_ / "stdout"),
            slurp(dir_ / "stderr")};
  }

  fs::path dir_;
};

TEST_F(MatrixBenchCli, SmallGridWritesTableCsvAndFigures) {
  const fs::path out = dir_ / "bench";
  const Outcome r =
      run("--workloads gpt32,sweep-flows --switches 4 --deltas 0.02,0.04 --trials 1 "
          "--algorithms spectra-ref,bvn --out " +
          out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("== gpt32"), std::string::npos);
  EXPECT_NE(r.out.find("baseline/spectra-ref:"), std::string::npos);
  EXPECT_NE(r.out.find("0 failures"), std::string::npos);
  // The baseline is added when not listed: 3 algorithms x (2 deltas + 8 sweep points).
  const std::string csv = slurp(out / "matrix-bench.csv");
  EXPECT_EQ(csv.rfind("workload,x,switches,delta,algorithm,", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * (2 + 8));
  EXPECT_NE(csv.find("gpt32,0.02,4,0.02,baseline,1,"), std::string::npos);
  for (const char* svg : {"gpt32-s4.svg", "sweep-flows-s4.svg"}) {
    const std::string text = slurp(out / svg);
    EXPECT_EQ(text.rfind("<svg", 0), 0u) << svg;
    EXPECT_NE(text.find(">LB</text>"), std::string::npos) << svg;
  }
}

TEST_F(MatrixBenchCli, BadInputIsOneLineExitTwoAndWritesNothing) {
  const fs::path out = dir_ / "never";
  for (const std::string args : {"--trials 0", "--switches 0", "--deltas -0.1", "--deltas nan",
                                 "--algorithms nosuch", "--workloads nosuch", "--trials x"}) {
    const Outcome r = run(args + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("flux: error: ", 0), 0u) << args;
    EXPECT_FALSE(fs::exists(out)) << args;
    fs::remove_all(out);
  }
  const Outcome r = run("--workloads gpt32 --out /proc/flux/cannot");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos);
}

// --from-csv redraws the figures of an earlier run's CSV: the same SVGs as the run wrote.
TEST_F(MatrixBenchCli, FromCsvRedrawsTheSameFigures) {
  const fs::path out = dir_ / "bench", re = dir_ / "re";
  ASSERT_EQ(run("--workloads gpt32,sweep-flows --ocs 4,16 --taus 0.02,0.04 --trials 1 "
                "--algorithms spectra-ref,bvn --out-dir " +
                out.string())
                .code,
            0);
  const Outcome r =
      run("--from-csv " + (out / "matrix-bench.csv").string() + " --out-dir " + re.string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* svg :
       {"gpt32-s4.svg", "gpt32-s16.svg", "sweep-flows-s4.svg", "sweep-flows-s16.svg"}) {
    const std::string ran = slurp(out / svg);
    EXPECT_NE(ran.find(">spectra-ref</text>"), std::string::npos) << svg;
    EXPECT_EQ(slurp(re / svg), ran) << svg;
  }
  EXPECT_FALSE(fs::exists(re / "matrix-bench.csv"));
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
    std::ofstream(dir_ / "bad.csv") << text;
    const Outcome r =
        run("--from-csv " + (dir_ / "bad.csv").string() + " --out-dir " + (dir_ / "re").string());
    EXPECT_EQ(r.code, 2) << needle;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "re"));
  }
}

}  // namespace
