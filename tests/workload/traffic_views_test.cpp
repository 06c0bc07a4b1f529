#include <gtest/gtest.h>

#include <sstream>

#include "support/csv_reader.hpp"
#include "workload/dag_builder.hpp"
#include "workload/traffic_views.hpp"
#include "workload/workload_stats.hpp"

namespace flux::workload {
namespace {

TEST(TrafficViews, DemandSumsEqualGroupBytesAndFlowsListRingSteps) {
  Scenario s =
      read_scenario(std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json");
  s.model.num_layers = 1;
  const Workload w = build_workload(s);
  const WorkloadStats st = workload_stats(w);
  const matrix::Demand all = workload_demand(w);
  const matrix::Demand dp = workload_demand(w, {"dp", ""});
  const matrix::Demand tp = workload_demand(w, {"", "tp"});
  double sum_all = 0, sum_dp = 0, sum_tp = 0;
  for (double x : all.matrix.data()) sum_all += x;
  for (double x : dp.matrix.data()) sum_dp += x;
  for (double x : tp.matrix.data()) sum_tp += x;
  EXPECT_DOUBLE_EQ(sum_all, st.total_bytes);
  EXPECT_DOUBLE_EQ(sum_dp, st.bytes_per_phase.at("dp"));
  EXPECT_DOUBLE_EQ(sum_tp, st.bytes_per_group.at("tp"));
  EXPECT_EQ(tp.matrix(0, 1), tp.matrix(1, 2));  // the ring i -> i+1 within the TP group
  EXPECT_EQ(tp.matrix(0, 2), 0);
  EXPECT_GT(dp.matrix(0, 4), 0);  // DP pairs {0,4}, ...
  EXPECT_EQ(dp.matrix(0, 1), 0);

  PhaseDemandSink phases;
  replay_workload(w, phases);
  double sum_phases = 0;
  for (const auto& [key, d] : phases.demands())
    for (double x : d.matrix.data()) sum_phases += x;
  EXPECT_DOUBLE_EQ(sum_phases, st.total_bytes);
  ASSERT_EQ(phases.demands().count("dp-dp"), 1u);
  EXPECT_EQ(phases.demands().at("dp-dp").matrix, dp.matrix);
  EXPECT_EQ(phases.demands().count("fwd-tp") + phases.demands().count("bwd-tp"), 2u);

  std::ostringstream csv;
  FlowsCsvWriter writer(csv);
  writer.begin(w.gpus);
  for (const Task& t : w.tasks) writer.add(t);
  writer.end();
  std::istringstream in(csv.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "flow_id,collective_id,group,phase,layer,microbatch,src,dst,bytes,step,depends_on");
  int rows = 0, max_step = 0, with_deps = 0;
  while (std::getline(in, line)) {
    ++rows;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (cells[2] == "tp") max_step = std::max(max_step, std::stoi(cells[9]));
    with_deps += cells.size() == 11 && !cells[10].empty();
  }
  EXPECT_EQ(rows, st.send_tasks);
  EXPECT_EQ(max_step, 5);  // ring all-reduce over 4 ranks: steps 0..2(p-1)-1
  EXPECT_GT(with_deps, rows / 2);
}

// Tags come from imported traces too, so flows.csv must quote them when they are not CSV-safe.
TEST(TrafficViews, FlowsCsvQuotesTagsThatAreNotCsvSafe) {
  Workload w;
  w.gpus = 2;
  Task send;
  send.kind = TaskKind::send;
  send.src = 0;
  send.dst = 1;
  send.bytes = 8;
  send.group = "pg \"a,b\"";
  send.phase = "fwd,\nbwd";
  w.tasks.push_back(send);
  std::ostringstream csv;
  FlowsCsvWriter writer(csv);
  writer.begin(w.gpus);
  for (const Task& t : w.tasks) writer.add(t);
  writer.end();
  const auto records = testing::parse_csv(csv.str());
  ASSERT_EQ(records.size(), 2U);
  ASSERT_EQ(records[1].size(), records[0].size());
  EXPECT_EQ(records[1][2], send.group);
  EXPECT_EQ(records[1][3], send.phase);
  EXPECT_EQ(records[1][8], "8");
}

}  // namespace
}  // namespace flux::workload
