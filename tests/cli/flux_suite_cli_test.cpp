#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "support/cli.hpp"
#include "support/csv_reader.hpp"

namespace flux {
namespace {

using testing::slurp;

// One transformer layer of GPT-3 125M, TP2 x DP2 on 4 GPUs: a few hundred sends.
constexpr const char* kTinyScenario = R"({
  "format": "flux.scenario/1", "name": "tiny",
  "model": {"preset": "gpt3-125m", "num_layers": 1},
  "parallelism": {"world_size": 4, "tensor_model_parallel_size": 2},
  "training": {"micro_batch_size": 1, "global_batch_size": 2, "seq_length": 512,
               "params_dtype": "bf16"},
  "hardware": {"gpu": "a100", "mfu": 0.5}})";

class FluxSuiteCli : public testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    write("tiny.json", kTinyScenario);
  }
  std::string suite(const std::string& cases = R"([{"label": "tiny", "scenario": "tiny.json"}])",
                    const std::string& ocs = "[2]") const {
    return write("suite.json", R"({"format": "flux.bench-suite/1", "name": "tiny suite",
      "fabric": ")" + testing::kFabric +
                                   R"(", "cases": )" + cases + R"(, "taus": [1e-4], "ocs": )" +
                                   ocs + "}");
  }
};

// A node and move budget with a time limit far beyond them: the run ends at the same point on
// any machine. Each row's numbers hold together: the gap is (iteration - bound) / iteration, the
// bound is below the iteration, "optimal" means the gap is within the solver's tolerance, and
// the best periodic scheduler is the fastest of the periodic columns.
TEST_F(FluxSuiteCli, TinySuiteRunsEndToEndAndItsRowsHoldTogether) {
  const auto r = flux("bench flux --suite " + suite() +
                      " --time-limit 3600s --threads 1 --node-limit 5 --search-moves 50 -o out");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tiny suite"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best periodic"), std::string::npos) << r.out;
  const auto records = testing::parse_csv(slurp(path("out/flux_suite.csv")));
  ASSERT_EQ(records.size(), 2u);  // header + one cell
  std::map<std::string, std::string> row;
  for (std::size_t k = 0; k < records[0].size(); ++k) row[records[0][k]] = records[1][k];
  auto num = [&](const std::string& column) {
    EXPECT_TRUE(row.count(column)) << column;
    return std::stod(row[column]);
  };
  EXPECT_EQ(row["case"], "tiny");
  EXPECT_EQ(num("gpus"), 4);
  EXPECT_EQ(num("ocs"), 2);
  EXPECT_TRUE(row["failure"].empty()) << row["failure"];
  const double iteration = num("flux_iteration_s"), bound = num("flux_bound_s");
  EXPECT_GT(bound, 0);
  EXPECT_LE(bound, iteration * (1 + 1e-9));
  EXPECT_NEAR(num("gap"), (iteration - bound) / iteration, 1e-6);
  EXPECT_EQ(row["status"] == "optimal", num("gap") <= 1e-4) << row["status"] << " " << row["gap"];
  const double best = std::min({num("rotornet_iteration_s"), num("rotornet-vlb_iteration_s"),
                                num("bvn-periodic_iteration_s")});
  EXPECT_EQ(num("best_periodic_iteration_s"), best);
  EXPECT_EQ(num(row["best_periodic"] + "_iteration_s"), best);
  EXPECT_NEAR(num("best_periodic_over_flux"), best / iteration, 1e-6 * best / iteration);
  EXPECT_NEAR(num("flux_over_ideal"), iteration / num("ideal_iteration_s"), 1e-6);
  EXPECT_TRUE(exists("out/flux_suite.csv.meta.json"));
  ASSERT_TRUE(exists("out/periodic_over_flux_2ocs.svg"));
  // The figure again from the CSV alone, identical.
  const auto re = flux("bench flux --suite --from-csv out/flux_suite.csv -o re");
  ASSERT_EQ(re.code, 0) << re.err;
  EXPECT_EQ(slurp(path("re/periodic_over_flux_2ocs.svg")),
            slurp(path("out/periodic_over_flux_2ocs.svg")));
}

TEST_F(FluxSuiteCli, BadSuitesAreRejectedNamingFileAndField) {
  expect_rejected("bench flux --suite missing.json -o out.json", "missing.json");
  expect_rejected("bench flux --suite " +
                      suite(R"([{"label": "tiny", "scenario": "tiny.json", "layers": -1}])") +
                      " -o out.json",
                  "suite.json: /cases/0/layers");
  expect_rejected("bench flux --suite " + suite(R"([{"label": "tiny", "scenario": "no.json"}])") +
                      " -o out.json",
                  "suite.json: /cases/0/scenario");
  expect_rejected("bench flux --suite " +
                      suite(R"([{"label": "tiny", "scenario": "tiny.json"}])", "[0]") +
                      " -o out.json",
                  "suite.json: /ocs/0");
  expect_rejected("bench flux --suite " + suite("[]") + " -o out.json", "suite.json: /cases");
  // The suite names its own scenarios, fabric and delays.
  const auto r = flux("bench flux --suite " + suite() + " --layers 8 -o out.json");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--layers"), std::string::npos) << r.err;
  expect_rejected("bench flux --suite " + suite() + " --cases tiny,huge -o out.json",
                  "--cases: case labels of suite.json, not huge");
  EXPECT_EQ(flux("bench flux --cases tiny -o out.json").code, 2);  // --cases needs --suite
  // A scenario that does not build is named with its file.
  write("bad-scenario.json", R"({"format": "flux.scenario/1", "name": "x",
    "model": {"preset": "gpt3-125m"}, "parallelism": {"world_size": 3,
    "tensor_model_parallel_size": 2}})");
  expect_rejected("bench flux --suite " +
                      suite(R"([{"label": "x", "scenario": "bad-scenario.json"}])") +
                      " -o out.json",
                  "bad-scenario.json");
}

}  // namespace
}  // namespace flux
