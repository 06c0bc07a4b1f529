// The sweep file's reader and its plan: strictness, cell counts with zip groups, merged equal
// cells, stable ids and shards that partition the plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "sweep/sweep_plan.hpp"

namespace flux::sweep {
namespace {

using Json = nlohmann::json;

Json small() {
  std::ifstream in(std::string(FLUX_TEST_DATA_DIR) + "/sweeps/small.json");
  return Json::parse(in);
}

Sweep parse(const Json& j) {
  return parse_sweep(j.dump(), "sweep.json");
}

// The InputError of a bad sweep: its field (JSON pointer) and message.
InputError error_of(const Json& j) {
  try {
    (void)parse(j);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << j.dump();
  return InputError("", "", "");
}

TEST(SweepFile, SmallGridHasEveryCombination) {
  const SweepPlan plan = plan_sweep(parse(small()));
  ASSERT_EQ(plan.cells.size(), 8u);
  EXPECT_EQ(plan.combinations, 8u);
  // The first axis varies slowest, the last fastest.
  EXPECT_EQ(plan.cells[0].params["axes"]["layers"], 1);
  EXPECT_EQ(plan.cells[0].params["axes"]["scheduler"], "rotornet");
  EXPECT_EQ(plan.cells[1].params["axes"]["scheduler"], "bvn");
  EXPECT_EQ(plan.cells[4].params["axes"]["layers"], 2);
  // Each axis reached its target.
  EXPECT_EQ(plan.cells[7].params["scenario"]["model"]["num_layers"], 2);
  EXPECT_EQ(plan.cells[7].params["fabric"]["reconfig_delay"], 1e-4);
  EXPECT_EQ(plan.cells[7].params["scheduler"], "bvn");
  std::set<std::string> ids;
  for (const SweepCell& c : plan.cells) ids.insert(c.id);
  EXPECT_EQ(ids.size(), 8u);
}

TEST(SweepFile, IdsAreStableAndDependOnEveryParameter) {
  const SweepPlan a = plan_sweep(parse(small())), b = plan_sweep(parse(small()));
  for (std::size_t i = 0; i < a.cells.size(); ++i) EXPECT_EQ(a.cells[i].id, b.cells[i].id);
  Json j = small();
  j["fabric"]["ocs"] = 1;  // not an axis, but a parameter of every cell
  const SweepPlan c = plan_sweep(parse(j));
  for (std::size_t i = 0; i < a.cells.size(); ++i) EXPECT_NE(a.cells[i].id, c.cells[i].id);
  EXPECT_EQ(a.cells[0].id.size(), 16u);
}

TEST(SweepFile, ZipGroupsAdvanceTogether) {
  Json j = small();
  j["zip"] = Json::array({Json::array({"layers", "tau_s"})});
  const SweepPlan plan = plan_sweep(parse(j));
  ASSERT_EQ(plan.cells.size(), 4u);  // (1, 1e-5), (2, 1e-4) x 2 schedulers
  for (const SweepCell& c : plan.cells)
    EXPECT_EQ(c.params["axes"]["layers"] == 1, c.params["axes"]["tau_s"] == 1e-5);
  j["axes"].push_back({{"name", "ocs"}, {"field", "fabric/ocs"}, {"values", {1, 2, 4}}});
  EXPECT_EQ(plan_sweep(parse(j)).cells.size(), 12u);
  j["zip"] = Json::array({Json::array({"layers", "ocs"})});  // 2 values against 3
  EXPECT_EQ(error_of(j).field(), "/zip/0/1");
}

TEST(SweepFile, OptionAxisOnlyWhereTheSchedulerHasIt) {
  Json j = small();
  j["axes"][2]["values"] = Json::array({"rotornet", "flux-greedy"});
  j["axes"].push_back(
      {{"name", "slot_s"}, {"field", "option/slot"}, {"values", {"5us", "10us", "20us"}}});
  const Sweep s = parse(j);
  const SweepPlan plan = plan_sweep(s);
  // rotornet takes a slot: 3 cells per (layers, tau); flux-greedy has none: 1.
  EXPECT_EQ(plan.combinations, 4u * 2 * 3);
  EXPECT_EQ(plan.cells.size(), 4u * (3 + 1));
  for (const SweepCell& c : plan.cells) {
    const bool rotornet = c.params["scheduler"] == "rotornet";
    EXPECT_EQ(c.params["options"].contains("slot"), rotornet);
    EXPECT_EQ(c.params["axes"]["slot_s"].is_null(), !rotornet);
  }
}

TEST(SweepFile, SeedGoesWhereTheSchedulerHasOne) {
  Json j = small();
  j["axes"][2]["values"] = Json::array({"flux", "rotornet"});
  j["axes"].push_back({{"name", "seed"}, {"field", "seed"}, {"values", {1, 2, 3}}});
  const SweepPlan plan = plan_sweep(parse(j));
  EXPECT_EQ(plan.cells.size(), 4u * (3 + 1));  // flux has a seed option, rotornet none
  for (const SweepCell& c : plan.cells) {
    const bool flux = c.params["scheduler"] == "flux";
    EXPECT_EQ(c.params["options"].contains("seed"), flux);
    if (flux) {
      EXPECT_EQ(c.params["options"]["seed"], c.params["axes"]["seed"]);
    }
  }
}

TEST(SweepFile, RejectsBadFilesNamingThePointer) {
  struct Case {
    std::string pointer;
    std::function<void(Json&)> edit;
  };
  const std::vector<Case> cases = {
      {"/axes/0/field", [](Json& j) { j["axes"][0]["field"] = "scenario/model/nm_layers"; }},
      {"/axes/0/field", [](Json& j) { j["axes"][0]["field"] = "layers"; }},
      {"/axes/0/values", [](Json& j) { j["axes"][0]["values"] = Json::array(); }},
      {"/axes/0/values/1", [](Json& j) { j["axes"][0]["values"][1] = "two"; }},
      {"/axes/1/values/0", [](Json& j) { j["axes"][1]["values"][0] = -1; }},
      {"/axes/2/values/1", [](Json& j) { j["axes"][2]["values"][1] = "rotonet"; }},
      {"/axes/1/field", [](Json& j) { j["axes"][1]["field"] = "option/no_such_option"; }},
      {"/axes", [](Json& j) { j["axes"] = Json::array(); }},
      {"/axes/1/name", [](Json& j) { j["axes"][1]["name"] = "layers"; }},
      {"/axes/0/extra", [](Json& j) { j["axes"][0]["extra"] = 1; }},
      {"/colour", [](Json& j) { j["colour"] = "red"; }},
      {"/format", [](Json& j) { j["format"] = "flux.sweep/2"; }},
      {"/scheduler", [](Json& j) { j["scheduler"] = "fluxx"; }},
      {"/", [](Json& j) { j["axes"].erase(2); }},  // no scheduler anywhere
      {"/", [](Json& j) { j["workload"] = "w.json"; }},
      {"/outputs/0", [](Json& j) { j["outputs"] = {"everything.csv"}; }},
      {"/zip/0/0",
       [](Json& j) {
         j["zip"] = Json::array({Json::array({"nope", "layers"})});
       }},
      {"/scenario/model/num_layers", [](Json& j) { j["scenario"]["model"]["num_layers"] = 0; }},
  };
  for (const Case& c : cases) {
    Json j = small();
    c.edit(j);
    const InputError e = error_of(j);
    EXPECT_EQ(e.file(), "sweep.json") << j.dump();
    EXPECT_EQ(e.field(), c.pointer) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(SweepFile, ShardsPartitionThePlan) {
  for (std::size_t n : {1u, 3u, 8u, 11u}) {
    std::vector<std::size_t> all;
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i : shard_cells(8, {k, n})) all.push_back(i);
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), 8u) << n;
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(all[i], i);
  }
  EXPECT_EQ(parse_shard("2/4", "--shard").index, 2u);
  for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/2", "1/2x"})
    EXPECT_THROW((void)parse_shard(bad, "--shard"), InputError) << bad;
}

TEST(SweepFile, PlanNamesTheLargestCell) {
  const Sweep s = parse(small());
  const std::string text = describe_plan(s, plan_sweep(s));
  EXPECT_NE(text.find("8 cells"), std::string::npos) << text;
  EXPECT_NE(text.find("largest cell"), std::string::npos) << text;
  EXPECT_NE(text.find("layers=2"), std::string::npos) << text;
}

}  // namespace
}  // namespace flux::sweep
