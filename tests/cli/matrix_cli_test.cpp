// `flux matrix generate | schedule | bound | verify` through the real binary.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "matrix/bounds.hpp"
#include "matrix/demand.hpp"
#include "matrix/schedule.hpp"
#include "matrix/verify.hpp"
#include "matrix_schedulers/registry.hpp"
#include "support/cli.hpp"

namespace flux {
namespace {

using testing::CliTest;

class MatrixCli : public CliTest {};

TEST_F(MatrixCli, GenerateIsSeededAndNormalised) {
  ASSERT_EQ(flux("matrix generate synthetic --n 40 --seed 3 -o a.json").code, 0);
  ASSERT_EQ(flux("matrix generate synthetic --n 40 --seed 3 -o b.json").code, 0);
  ASSERT_EQ(flux("matrix generate synthetic --n 40 --seed 4 -o c.json").code, 0);
  EXPECT_EQ(testing::slurp(path("a.json")), testing::slurp(path("b.json")));
  EXPECT_NE(testing::slurp(path("a.json")), testing::slurp(path("c.json")));
  const matrix::Demand d = matrix::read_demand(path("a.json").string());
  EXPECT_EQ(d.matrix.n(), 40);
  EXPECT_EQ(d.unit, matrix::DemandUnit::normalized);
  EXPECT_NEAR(d.matrix.max_line_sum(), 1.0, 1e-9);
}

TEST_F(MatrixCli, GenerateEveryKindWithItsOptions) {
  for (const std::string args :
       {"gpt --ports 64 --noisy",
        "moe --ranks 16 --tokens 256 --topk 2 --popularity zipf "
        "--zipf-s 1.2",
        "alltoall --n 8", "perm --n 16 --k 5", "sparse --n 20 --density 0.3",
        "synthetic --n 30 --large 2 --small 6 --large-share 0.6 --noise 0"}) {
    const auto r = flux("matrix generate " + args + " --seed 1 -o d.json");
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
    EXPECT_NE(r.out.find("wrote d.json"), std::string::npos) << r.out;
  }
  EXPECT_EQ(matrix::read_demand(path("d.json").string()).matrix.n(), 30);
}

TEST_F(MatrixCli, GenerateInBytes) {
  ASSERT_EQ(flux("matrix generate gpt --bytes 64MiB -o g.json").code, 0);
  const matrix::Demand d = matrix::read_demand(path("g.json").string());
  EXPECT_EQ(d.unit, matrix::DemandUnit::bytes);
  // Whole bytes: each entry rounded, so a line sum moves by at most half a byte per entry.
  EXPECT_NEAR(d.matrix.max_line_sum(), 64.0 * 1024 * 1024, 0.5 * d.matrix.n());
  for (double v : d.matrix.data()) EXPECT_EQ(v, std::round(v));
}

TEST_F(MatrixCli, ScheduleWritesVerifiedScheduleAndPrintsSummary) {
  ASSERT_EQ(flux("matrix generate gpt -o g.json").code, 0);
  const auto r = flux("matrix schedule --demand g.json --switches 4 --delta 0.01 -o s.json");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* key :
       {"makespan 0.2675", "lower bound 0.2675 (LB1 0.26, LB2 0.2675, LB3 0.2675, LB4 0.2675)",
        "ratio 1.0000", "permutations ", "splits ", "algorithm spectra"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in\n" << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ntime [0-9.]+(ns|us|ms|s)\n"))) << r.out;
  const matrix::Demand d = matrix::read_demand(path("g.json").string());
  const matrix::MatrixSchedule s = matrix::read_matrix_schedule(path("s.json").string());
  EXPECT_TRUE(verify_matrix_schedule(d.matrix, s).valid());
  EXPECT_EQ(s.algorithm, "spectra");
  EXPECT_NEAR(s.lower_bound, matrix::matrix_lower_bounds(d.matrix, 4, 0.01).all_stop, 1e-12);
  EXPECT_EQ(flux("matrix verify --demand g.json --schedule s.json").code, 0);
}

TEST_F(MatrixCli, EveryRegisteredAlgorithmPassesTheVerifier) {
  ASSERT_EQ(flux("matrix generate synthetic --n 24 --large 2 --small 4 --seed 2 -o d.json").code,
            0);
  for (const matrix_schedulers::MatrixAlgorithm& a : matrix_schedulers::matrix_algorithms()) {
    const auto r =
        flux("matrix schedule --demand d.json -s 4 --delta 0.02 -a " + a.name + " -o s.json");
    EXPECT_EQ(r.code, 0) << a.name << ": " << r.err;
    const auto v = flux("matrix verify --demand d.json --schedule s.json");
    EXPECT_EQ(v.code, 0) << a.name << ": " << v.out;
  }
}

TEST_F(MatrixCli, PhysicalUnitsInAndOut) {
  ASSERT_EQ(flux("matrix generate gpt --bytes 64MiB -o g.json").code, 0);
  const auto r = flux(
      "matrix schedule --demand g.json -s 4 --delta 10us --rate 800Gbps "
      "-o s.json");
  ASSERT_EQ(r.code, 0) << r.err;
  // 64 MiB at 100 GB/s is 671us on one link; over 4 switches about a quarter, in human units.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("makespan [0-9.]+us\n"))) << r.out;
  const matrix::MatrixSchedule s = matrix::read_matrix_schedule(path("s.json").string());
  EXPECT_DOUBLE_EQ(s.rate, 1e11);
  EXPECT_DOUBLE_EQ(s.delta, 1e-5);
  const auto b = flux("matrix bound --demand g.json -s 4 --delta 10us --rate 800Gbps");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_TRUE(std::regex_search(
      b.out,
      std::regex("^LB1 [0-9.]+us\nLB2 [0-9.]+us\nLB3 [0-9.]+us \\(all-stop only\\)\nLB4 [0-9.]+us\n"
                 "bound ")))
      << b.out;
}

TEST_F(MatrixCli, CsvDemandInBytes) {
  testing::spit(path("d.csv"), "0,1e6,0\n2e6,0,0\n0,0,5e5\n");
  const auto r = flux("matrix schedule --demand d.csv -s 2 --delta 1us --rate 8Gbps -o s.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("input d.csv: n 3, unit bytes, switches 2, delta 1us, rate 8Gbps"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(flux("matrix verify --demand d.csv --schedule s.json").code, 0);
  // 2e6 bytes at 1 GB/s = 2 ms on one link: split over 2 switches, 1 ms + delta at least.
  EXPECT_GE(matrix::read_matrix_schedule(path("s.json").string()).makespan, 1e-3 + 1e-6);
}

TEST_F(MatrixCli, BoundPrintsEveryBound) {
  ASSERT_EQ(flux("matrix generate gpt -o g.json").code, 0);
  const auto r = flux("matrix bound --demand g.json --switches 4 --delta 0.04");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "LB1 0.29\nLB2 0.32\nLB3 0.32 (all-stop only)\nLB4 0.32\nbound 0.32 (all-stop), 0.32 "
            "(per-port)\n");
  // On 16 switches at delta = 0.08 a GPT port's entries cannot share the switches evenly: LB4
  // lifts the bound of every reconfiguration model above LB2 and LB3.
  const auto wide = flux("matrix bound --demand g.json --switches 16 --delta 0.08");
  ASSERT_EQ(wide.code, 0) << wide.err;
  EXPECT_EQ(wide.out,
            "LB1 0.1425\nLB2 0.147655\nLB3 0.147655 (all-stop only)\nLB4 0.152856\n"
            "bound 0.152856 (all-stop), 0.152856 (per-port)\n");
}

TEST_F(MatrixCli, VerifyListsEveryViolationAndExitsOne) {
  testing::spit(path("d.json"), R"({"format": "flux.demand/1", "n": 2, "unit": "normalized",
    "demand": [[0, 0.5], [0.5, 0]]})");
  testing::spit(path("s.json"), R"({"format": "flux.matrix-schedule/1", "algorithm": "hand",
    "n": 2, "switches": 1, "delta": 0.1, "rate": 1, "reconfiguration": "all-stop",
    "slots": [{"switch": 0, "start": 0.05, "end": 0.45, "perm": [1, 1]}],
    "makespan": 0.5, "lower_bound": 0})");
  const auto r = flux("matrix verify --demand d.json --schedule s.json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* text : {"output 1 used by inputs 0 and 1", "starts at 0.05",
                           "entry (0, 1): demand 0.5 but served 0",
                           "makespan is 0.5 but the "
                           "latest end is 0.45",
                           "invalid: 5 violations"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
}

TEST_F(MatrixCli, RunPrintsTheComparisonTable) {
  const auto r = flux("run");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text :
       {"workload", "synthetic", "gpt32", "spectra", "LB", "schedules, every one verified"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') >= 17, true) << r.out;  // 16 rows
  // The fabric part: Flux against each periodic scheduler and the best of them.
  for (const char* text : {"flux vs", "rotornet-vlb", "bvn-periodic", "best periodic",
                           "shorter iteration", "less peak NIC buffer", "(eager metric)"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
  // Every column of both tables is explained under it.
  for (const char* column :
       {"s = ", "delta = ", "LB = ", "/LB = ", "baseline/spectra = ", "posting = ", "iteration = ",
        "peak NIC buf = ", "waiting = ", "eager buf = ", "reconf = ", "vs ideal = ", "solver = "})
    EXPECT_NE(r.out.find(column), std::string::npos) << column << " not explained in\n" << r.out;
}

// The two bounds printed side by side are named for what they bound.
TEST_F(MatrixCli, CoschedNamesBothBounds) {
  const auto r = flux("cosched --scenario " + testing::kScenario + " --fabric " + testing::kFabric);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text :
       {"fabric lower bound ", "Flux-model bound ", "no scheduler on this fabric"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
}

}  // namespace
}  // namespace flux
