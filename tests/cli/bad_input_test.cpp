// The issue's "Bad input" list through the real binary: one line on stderr naming the problem,
// exit code 2, and no output file (complete or partial) left behind.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/cli.hpp"

namespace flux {
namespace {

class BadInput : public testing::CliTest {
 protected:
  void write(const std::string& name, const std::string& text) { testing::spit(path(name), text); }
  // Valid 2 x 2 demands, d.json normalised and b.json in bytes, for the tests whose bad input is
  // elsewhere.
  void write_valid_demand() {
    write("d.json",
          R"({"format":"flux.demand/1","n":2,"unit":"normalized","demand":[[0,1],[1,0]]})");
    write("b.json", R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[0,1],[1,0]]})");
  }
  std::string schedule_args(const std::string& demand) {
    return "matrix schedule --demand " + demand + " -s 2 --delta 0.01 -o out.json";
  }
};

// Bad demand files: (file, content, what the error must name).
TEST_F(BadInput, DemandFiles) {
  struct Case {
    const char* file;
    const char* content;
    const char* needle;
  };
  const Case cases[] = {
      {"square.csv", "1,2,3\n4,5,6\n", "row 1: expected 2 numbers"},  // non-square
      {"ragged.json",
       R"({"format":"flux.demand/1","n":2,"unit":"normalized","demand":[[0,1],[1]]})", "/demand/1"},
      {"negative.json",
       R"({"format":"flux.demand/1","n":2,"unit":"normalized","demand":[[0,-1],[1,0]]})",
       "/demand/0/1"},
      {"nan.csv", "0,nan\n1,0\n", "line 1 column 2"},
      {"huge.csv", "0,1e100\n1,0\n", "line 1 column 2"},  // once an abort inside the LP solver
      {"huge.json", R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[0,1e100],[1,0]]})",
       "/demand/0/1"},
      {"beyond.json",  // beyond double: once an internal error without the file
       R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[0,1e400],[1,0]]})",
       "beyond.json"},
      {"n.json", R"({"format":"flux.demand/1","n":3,"unit":"normalized","demand":[[0,1],[1,0]]})",
       "n = 3 rows"},  // declared n differs from the rows
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    write(c.file, c.content);
    expect_rejected(schedule_args(c.file) + " --rate 1GB/s", c.needle);
  }
}

TEST_F(BadInput, TooFewSwitches) {
  write_valid_demand();
  expect_rejected("matrix schedule --demand d.json -s 0 --delta 0.01 -o out.json", "--ocs");
  expect_rejected("matrix bound --demand d.json -s -3 --delta 0.01", "--ocs");
}

// The command line accepts exactly the switch counts the schedulers do (it once allowed 2^20
// while the schedulers stop at 2^16): more is rejected up front, naming the flag and the limit.
TEST_F(BadInput, TooManySwitches) {
  write_valid_demand();
  expect_rejected("matrix schedule --demand d.json -s 65537 --delta 0.01 -o out.json",
                  "--ocs: expected an integer in [1, 65536]");
  expect_rejected("matrix bound --demand d.json -s 1000000 --delta 0.01",
                  "--ocs: expected an integer in [1, 65536]");
}

TEST_F(BadInput, NegativeDelta) {
  write_valid_demand();
  expect_rejected("matrix schedule --demand d.json -s 2 --delta=-0.01 -o out.json", "--tau");
  expect_rejected("matrix schedule --demand b.json -s 2 --tau=-1us --rate 1Gbps -o out.json",
                  "--tau");
}

TEST_F(BadInput, UnitsThatDoNotFitTheDemand) {
  write_valid_demand();
  expect_rejected("matrix schedule --demand d.json -s 2 --delta 10us -o out.json", "plain number");
  expect_rejected("matrix schedule --demand b.json -s 2 --delta 10us -o out.json",
                  "--rate: required");
}

TEST_F(BadInput, ScheduleForAnotherN) {
  write_valid_demand();
  write("s.json", R"({"format":"flux.matrix-schedule/1","algorithm":"x","n":3,"switches":1,
    "delta":0,"rate":1,"reconfiguration":"all-stop","slots":[],"makespan":0,"lower_bound":0})");
  expect_rejected("matrix verify --demand d.json --schedule s.json",
                  "s.json: /n: expected n = 2 to match the demand d.json, got 3");
}

TEST_F(BadInput, UnknownAlgorithmListsTheValidNames) {
  write_valid_demand();
  expect_rejected(schedule_args("d.json") + " --algorithm nope",
                  "unknown algorithm 'nope'; valid: spectra, spectra-ref");
}

TEST_F(BadInput, MissingFiles) {
  expect_rejected(schedule_args("missing.json"), "missing.json");
  write_valid_demand();
  expect_rejected("matrix verify --demand d.json --schedule missing.json", "missing.json");
  expect_rejected("matrix schedule --demand d.json -s 2 --delta 0.1 -o nodir/out.json", "nodir");
}

TEST_F(BadInput, GeneratorOptionsAndKinds) {
  expect_rejected("matrix generate nope -o out.json", "unknown kind 'nope'");
  expect_rejected("matrix generate synthetic --tokens 5 -o out.json",
                  "--tokens: not an option of 'synthetic'");
  expect_rejected("matrix generate moe --popularity flat -o out.json", "dirichlet or zipf");
  expect_rejected("matrix generate sparse --density 2 -o out.json", "density");
  expect_rejected("matrix generate gpt --n 48 -o out.json", "");
}

}  // namespace
}  // namespace flux
