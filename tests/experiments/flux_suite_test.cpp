#include "experiments/flux_suite.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "support/cli.hpp"

namespace flux::experiments {
namespace {

// Parsed as if it sat in examples/suites/, so its relative paths name the real examples.
const std::string kSuiteFile = testing::kExamples + "suites/test-suite.json";

std::string suite_text(const std::string& replace_key = "", const std::string& value = "") {
  nlohmann::json j = {
      {"format", "flux.bench-suite/1"},
      {"name", "test"},
      {"fabric", "../fabric-8gpu-2ocs.json"},
      {"cases",
       {{{"label", "paper-2l"}, {"scenario", "../llama3-8b-8l-tp4-dp2.json"}, {"layers", 2}},
        {{"label", "dp8"}, {"scenario", "../gpt3-350m-8gpu-dp8-buckets.json"}}}},
      {"taus", {1e-6, 1e-3}},
      {"ocs", {2, 4}}};
  if (!replace_key.empty()) {
    const nlohmann::json::json_pointer p(replace_key);
    if (value.empty())
      j.erase(p.back());  // only top-level keys are dropped
    else
      j[p] = nlohmann::json::parse(value);
  }
  return j.dump();
}

TEST(FluxSuite, ReadsAGoodFileWithPathsRelativeToIt) {
  const FluxSuite s = parse_flux_suite(suite_text(), kSuiteFile);
  EXPECT_EQ(s.name, "test");
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].label, "paper-2l");
  EXPECT_EQ(s.cases[0].layers, 2);
  EXPECT_FALSE(s.cases[1].layers.has_value());
  const auto example = [](const std::string& file) {
    return std::filesystem::path(testing::kExamples + file).lexically_normal().string();
  };
  EXPECT_EQ(s.cases[1].scenario_path, example("gpt3-350m-8gpu-dp8-buckets.json"));
  EXPECT_EQ(s.fabric_path, example("fabric-8gpu-2ocs.json"));
  EXPECT_EQ(s.taus, (std::vector<double>{1e-6, 1e-3}));
  EXPECT_EQ(s.ocs, (std::vector<int>{2, 4}));
}

// Every case of the shipped suite reads and its scenarios build on the suite's fabric.
TEST(FluxSuite, DefaultSuiteReads) {
  const FluxSuite s = read_flux_suite(default_flux_suite_path());
  EXPECT_EQ(s.cases.size(), 7u);
  EXPECT_EQ(s.taus, (std::vector<double>{1e-6, 1e-5, 1e-4, 1e-3}));
  EXPECT_EQ(s.ocs, (std::vector<int>{2, 4}));
}

// Each bad field: an InputError naming the suite file and the field's JSON pointer.
TEST(FluxSuite, BadFieldsNameTheFileAndTheField) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"/format", "\"flux.sweep/1\"", ""},
      {"/name", "3", "/name"},
      {"/fabric", "\"../missing.json\"", "/fabric"},
      {"/cases", "[]", "/cases"},
      {"/cases/0/label", "\"a,b\"", "/cases/0/label"},
      {"/cases/1/label", "\"paper-2l\"", "/cases/1/label"},
      {"/cases/0/scenario", "\"nowhere.json\"", "/cases/0/scenario"},
      {"/cases/0/layers", "0", "/cases/0/layers"},
      {"/cases/0/layres", "2", ""},
      {"/taus", "[]", "/taus"},
      {"/taus/1", "-1", "/taus/1"},
      {"/ocs/0", "0", "/ocs/0"},
      {"/ocs", "2", "/ocs"},
      {"/extra", "1", ""},
  };
  for (const auto& [key, value, field] : cases) {
    try {
      (void)parse_flux_suite(suite_text(key, value), kSuiteFile);
      ADD_FAILURE() << key << " = " << value << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), kSuiteFile) << key;
      if (!field.empty()) {
        EXPECT_EQ(e.field(), field) << key << ": " << e.what();
      }
    }
  }
  for (const char* missing : {"/name", "/fabric", "/cases", "/taus", "/ocs"})
    EXPECT_THROW((void)parse_flux_suite(suite_text(missing), kSuiteFile), InputError) << missing;
  EXPECT_THROW((void)parse_flux_suite("[1]", kSuiteFile), InputError);
  EXPECT_THROW((void)parse_flux_suite("{", kSuiteFile), InputError);
}

// --cases keeps the named cases in the suite's order and refuses a label the suite lacks.
TEST(FluxSuite, SelectCasesKeepsTheSuiteOrder) {
  const FluxSuite s = parse_flux_suite(suite_text(), kSuiteFile);
  const FluxSuite one = select_cases(s, {"dp8"}, "--cases");
  ASSERT_EQ(one.cases.size(), 1u);
  EXPECT_EQ(one.cases[0].label, "dp8");
  const FluxSuite both = select_cases(s, {"dp8", "paper-2l"}, "--cases");
  ASSERT_EQ(both.cases.size(), 2u);
  EXPECT_EQ(both.cases[0].label, "paper-2l");
  try {
    (void)select_cases(s, {"dp8", "dp9"}, "--cases");
    ADD_FAILURE() << "dp9 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--cases");
    EXPECT_NE(std::string(e.what()).find("dp9"), std::string::npos) << e.what();
  }
}

// A case takes the suite's fabric at its own GPU count and its own layer count.
TEST(FluxSuite, CaseRunsOnTheSuiteFabricAtItsGpuCount) {
  const FluxSuite s = parse_flux_suite(
      suite_text("/cases/1/scenario", "\"../mixtral-8x7b-16gpu-tp2-ep8.json\""), kSuiteFile);
  const FluxSuiteCaseRun paper = prepare_suite_case(s, s.cases[0], FluxSweep{});
  EXPECT_EQ(paper.layers, 2);
  EXPECT_EQ(paper.sweep.fabric.gpus, 8);
  EXPECT_EQ(paper.sweep.model_label, "paper-2l");
  FluxSuite small = s;
  small.cases[1].layers = 1;
  const FluxSuiteCaseRun moe = prepare_suite_case(small, small.cases[1], FluxSweep{});
  EXPECT_EQ(moe.sweep.fabric.gpus, 16);
  EXPECT_EQ(moe.sweep.fabric.link_rate, 100e9);
  EXPECT_EQ(moe.sweep.fabric.latency, 0.0);
  EXPECT_FALSE(moe.sweep.fabric.initial_config_free);
}

FluxSweepRow row(const std::string& name, double iteration, const std::string& failure = "") {
  FluxSweepRow r;
  r.scheduler = name;
  r.m.iteration_time = failure.empty() ? iteration : NAN;
  r.failure = failure;
  if (name == "flux") {
    r.has_solver = true;
    r.solver.bound = 0.8;
    r.solver.status = milp::Status::feasible;
    r.solver.bound_source = "critical path";
  }
  return r;
}

// Best periodic = the smallest iteration among the periodic schedulers that ran; flux-greedy and
// ideal never count, a failed periodic scheduler neither.
TEST(FluxSuite, BestPeriodicIsTheFastestPeriodicSchedulerThatRan) {
  FluxSuiteCaseRun run;
  run.sweep.model_label = "x";
  const std::vector<FluxSweepRow> rows = {
      row("flux", 1.0),     row("flux-greedy", 0.5),  row("ideal", 0.4),
      row("rotornet", 3.0), row("rotornet-vlb", 2.0), row("bvn-periodic", 0, "refused"),
  };
  const FluxSuiteRow s = summarize_cell(run, 2, 1e-6, rows);
  EXPECT_EQ(s.best_periodic, "rotornet-vlb");
  EXPECT_EQ(s.best_periodic_iteration, 2.0);
  EXPECT_EQ(s.ideal_iteration, 0.4);
  EXPECT_DOUBLE_EQ(s.gap, 0.2);
  EXPECT_EQ(s.status, "feasible");
  EXPECT_EQ(s.bound_source, "critical path");
  EXPECT_TRUE(s.failure.empty());
  const FluxSuiteRow none = summarize_cell(run, 2, 1e-6, {row("flux", 1.0)});
  EXPECT_TRUE(none.best_periodic.empty());
  EXPECT_TRUE(std::isnan(none.best_periodic_iteration));
  const FluxSuiteRow failed = summarize_cell(run, 2, 1e-6, {row("flux", 0, "too big")});
  EXPECT_EQ(failed.failure, "too big");
}

// The CSV keeps what the figure needs, and a failed cell stays off it.
TEST(FluxSuite, CsvReadsBackForTheFigure) {
  FluxSuiteCaseRun run;
  run.sweep.model_label = "case, one";  // quoted in the CSV
  FluxSuiteRow a = summarize_cell(run, 4, 1e-5, {row("flux", 1.0), row("rotornet", 3.0)});
  FluxSuiteRow b = summarize_cell(run, 4, 1e-3, {row("flux", 0, "too big")});
  const auto back = read_flux_suite_csv(flux_suite_csv({a, b}), "s.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].label, "case, one");
  EXPECT_EQ(back[0].ocs, 4);
  EXPECT_EQ(back[0].tau, 1e-5);
  EXPECT_EQ(back[0].flux_iteration, 1.0);
  EXPECT_EQ(back[0].best_periodic_iteration, 3.0);
  EXPECT_TRUE(std::isnan(back[1].flux_iteration));
  const auto plots = flux_suite_plots(back);
  ASSERT_EQ(plots.size(), 1u);
  EXPECT_EQ(plots[0].first, "periodic_over_flux_4ocs.svg");
  EXPECT_NE(plots[0].second.find("case, one"), std::string::npos);
  EXPECT_THROW((void)read_flux_suite_csv("case,ocs\nx,2\n", "s.csv"), InputError);
}

}  // namespace
}  // namespace flux::experiments
