// `flux matrix bench` end to end: a small grid, its CSV and figures, and bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace
