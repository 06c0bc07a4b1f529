#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "workload/rank_layout.hpp"
#include "workload/scenario.hpp"

namespace flux::workload {
namespace {

std::string scenario(const std::string& parallel, const std::string& training,
                     const std::string& model = R"({"preset": "llama3-8b", "num_layers": 8})") {
  return R"({"format": "flux.scenario/1", "model": )" + model + R"(, "parallelism": )" + parallel +
         R"(, "training": )" + training + R"(, "hardware": {"gpu": "a100"}})";
}

const std::string kPar = R"({"world_size": 8, "tensor_model_parallel_size": 4})";
const std::string kTrain = R"({"micro_batch_size": 1, "global_batch_size": 4, "seq_length": 2048})";

TEST(Scenario, ParsesAndDerivesDataParallel) {
  const Scenario s = parse_scenario(scenario(kPar, kTrain), "s.json");
  EXPECT_EQ(s.model.num_layers, 8);
  EXPECT_EQ(s.model.hidden_size, 4096);
  EXPECT_EQ(s.parallel.data_parallel_size(), 2);
  EXPECT_EQ(s.num_microbatches(), 2);
  EXPECT_DOUBLE_EQ(s.hardware.peak_flops, 312e12);
}

void expect_error(const std::string& text, const std::string& field, const std::string& words) {
  try {
    (void)parse_scenario(text, "s.json");
    ADD_FAILURE() << "accepted " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Scenario, RejectsBadInputNamingTheField) {
  expect_error(scenario(R"({"world_size": 6, "tensor_model_parallel_size": 4})", kTrain),
               "/parallelism/world_size", "multiple of tp * pp * cp = 4");
  expect_error(scenario(R"({"world_size": 8, "pipeline_model_parallel_size": 3})", kTrain),
               "/parallelism/world_size", "multiple");
  expect_error(scenario(R"({"world_size": 8, "pipeline_model_parallel_size": 8,
                           "tensor_model_parallel_size": 1})",
                        R"({"micro_batch_size": 1, "global_batch_size": 4, "seq_length": 2048})",
                        R"({"preset": "llama3-8b", "num_layers": 12})"),
               "/model/num_layers", "multiple of pipeline stages");
  expect_error(scenario(kPar, R"({"micro_batch_size": -1, "global_batch_size": 4,
                                  "seq_length": 2048})"),
               "/training/micro_batch_size", "-1");
  expect_error(scenario(kPar, R"({"micro_batch_size": 1, "global_batch_size": 3,
                                  "seq_length": 2048})"),
               "/training/global_batch_size", "multiple of micro_batch_size");
  expect_error(scenario(kPar, kTrain, R"({"preset": "gpt-5"})"), "/model/preset", "llama3-8b");
  expect_error(scenario(kPar, kTrain, R"({"preset": "llama3-8b", "num_layer": 8})"),
               "/model/num_layer", "known field");
  expect_error(scenario(R"({"world_size": 8, "tensor_model_parallel_size": 8})", kTrain,
                        R"({"preset": "llama3-8b", "num_query_groups": 4})"),
               "/parallelism/tensor_model_parallel_size", "num_query_groups = 4");
  expect_error(scenario(R"({"world_size": 8, "rank_order": "tp-dp-pp"})", kTrain),
               "/parallelism/rank_order", "permutation");
  expect_error(scenario(kPar, kTrain,
                        R"({"num_layers": 2, "hidden_size": 4, "ffn_hidden_size": 8,
                            "num_attention_heads": 8, "vocab_size": 10})"),
               "/model/hidden_size", "at least num_attention_heads = 8");
}

TEST(Scenario, EchoShowsEffectiveAndDerivedValues) {
  const Scenario s = parse_scenario(scenario(kPar, kTrain), "s.json");
  const auto j = nlohmann::json::parse(scenario_to_json(s));
  EXPECT_EQ(j["model"]["preset"], "llama3-8b");
  EXPECT_EQ(j["model"]["num_layers"], 8);
  EXPECT_EQ(j["model"]["kv_channels"], 128);
  EXPECT_EQ(j["parallelism"]["rank_order"], "tp-cp-ep-dp-pp");
  EXPECT_EQ(j["hardware"]["peak_flops"], 312e12);
  EXPECT_EQ(j["derived"]["data_parallel_size"], 2);
  EXPECT_EQ(j["derived"]["num_microbatches"], 2);
}

// The echo is a scenario: it reads back as the same configuration (it was not, when derived values
// sat among the inputs and the reader rejected them as unknown fields).
TEST(Scenario, EchoReadsBackUnchanged) {
  for (const char* file : {"mixtral-8x7b-16gpu-tp2-ep8.json", "llama3-8b-8l-tp4-dp2.json",
                           "gpt3-175b-1024gpu-tp8-pp8-dp16.json"}) {
    const std::string echo = scenario_to_json(
        read_scenario(std::string(FLUX_TEST_DATA_DIR) + "/../../examples/" + file));
    EXPECT_EQ(scenario_to_json(parse_scenario(echo, "echo.json")), echo) << file;
  }
  const std::string custom = scenario(
      kPar, R"({"micro_batch_size": 1, "global_batch_size": 4, "seq_length": 2048,
               "params_dtype": "fp32", "ddp_bucket_size": 1e6})",
      R"({"num_layers": 2, "hidden_size": 64, "ffn_hidden_size": 128, "num_attention_heads": 4,
          "vocab_size": 1000})");
  const std::string echo = scenario_to_json(parse_scenario(custom, "s.json"));
  EXPECT_EQ(scenario_to_json(parse_scenario(echo, "echo.json")), echo);
}

TEST(Scenario, DerivedValuesAreCheckedNotRead) {
  std::string echo = scenario_to_json(parse_scenario(scenario(kPar, kTrain), "s.json"));
  const std::string dp = R"("data_parallel_size": 2)";
  echo.replace(echo.find(dp), dp.size(), R"("data_parallel_size": 4)");
  expect_error(echo, "/derived/data_parallel_size", "2 as derived from the scenario, got 4");
}

TEST(Scenario, RankLayoutFollowsMegatronOrder) {
  ParallelConfig p;
  p.world_size = 16;
  p.tensor_model_parallel_size = 2;
  p.pipeline_model_parallel_size = 2;
  const RankLayout layout(p);  // tp-cp-ep-dp-pp: tp fastest, pp slowest, dp = 4
  EXPECT_EQ(layout.group(5, {Dim::tp}), (std::vector<int>{4, 5}));
  EXPECT_EQ(layout.group(5, {Dim::ep, Dim::dp}), (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(layout.group(5, {Dim::pp}), (std::vector<int>{5, 13}));
  EXPECT_EQ(layout.stage_ranks(1).front(), 8);
  p.order = {Dim::pp, Dim::tp, Dim::cp, Dim::ep, Dim::dp};  // overridden: pp fastest
  const RankLayout swapped(p);
  EXPECT_EQ(swapped.group(0, {Dim::pp}), (std::vector<int>{0, 1}));
  EXPECT_EQ(swapped.group(0, {Dim::tp}), (std::vector<int>{0, 2}));
}

}  // namespace
}  // namespace flux::workload
