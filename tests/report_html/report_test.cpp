#include "report_html/report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <tuple>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report_html/chart_util.hpp"
#include "report_html/web_bundle.hpp"

namespace flux::report_html {
namespace {

namespace fs = std::filesystem;

class Report : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flux-report-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "run");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string run() const { return (dir_ / "run").string(); }
  fs::path dir_;
};

const char* kSummary = R"({"format": "flux.summary/1", "version": "0.1.0",
  "scheduler": {"name": "rotornet", "posting": "ready", "options": {"slot": 0.0}},
  "scenario": {"workload": "w.json", "gpus": 2, "fabric": {"format": "flux.fabric/1", "gpus": 2,
    "ocs": 1, "link_rate": 1e11, "latency": 0, "reconfig_delay": 1e-4, "circuit": "duplex",
    "initial_config_free": false}},
  "provenance": {"command": "flux simulate </script> x"},
  "iteration_time": 0.01, "lower_bound": 0.005, "peak_nic_buffer": 1048576,
  "reconfigurations": 3, "circuit_utilization": 0.5})";

TEST_F(Report, HasASectionForEachKindOfDataGiven) {
  if (chart_library_js().empty()) GTEST_SKIP() << "built without the chart library";
  write("run/summary.json", kSummary);
  write("run/circuits.csv", "switch,a,b,up,down\n0,0,1,0.0001,0.002\n0,0,1,0.003,0.004\n");
  write("run/flows.csv",
        "task,name,src,dst,bytes,ready,start,finish,wait,hops,relayed_bytes\n"
        "5,\"m, 1\",0,1,1000,0.001,0.002,0.003,0.001,1,0\n");
  write("run/nic_buffer.csv",
        "time_s,gpu,nic_B,waiting_B,hbm_held_B\n0.001,0,1000,1000,0\n"
        "0.003,0,0,0,0\n");
  write("run/timeline.json",
        R"({"traceEvents":[{"name":"fwd","ph":"X","pid":0,"tid":0,"ts":0,"dur":1000},)"
        R"({"name":"bwd","ph":"X","pid":0,"tid":1,"ts":3000,"dur":500},)"
        R"({"name":"circuit 0-1","ph":"X","pid":1,"tid":0,"ts":100,"dur":1900}]})");
  const std::string html = html_report({run()}, "flux report run -o r.html");
  for (const char* id : {"summary", "circuits", "gpus", "buffer", "matrices", "metadata"})
    EXPECT_NE(html.find(fmt::format("<section id=\"{}\"", id)), std::string::npos) << id;
  EXPECT_EQ(html.find("<section id=\"bench\""), std::string::npos);  // no bench table given
  // Metadata of any shape is shown, and nothing in the data can close a script element.
  EXPECT_NE(html.find("provenance.command"), std::string::npos);
  EXPECT_EQ(html.find("</script> x"), std::string::npos);
  // The critical path (fwd -> message -> bwd) is marked in the GPU timeline's data.
  EXPECT_NE(html.find("Critical path: 2 compute slices and 1 messages"), std::string::npos);
  // The page asks for nothing outside itself.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST_F(Report, ForeignOrBrokenInputIsAnInputError) {
  write("notes.txt", "hello");
  EXPECT_THROW((void)html_report({(dir_ / "notes.txt").string()}, ""), InputError);
  EXPECT_THROW((void)html_report({run()}, ""), InputError);  // an empty folder
  EXPECT_THROW((void)html_report({(dir_ / "missing").string()}, ""), InputError);
  write("run/flows.csv", "task,name,src\n1,a,2\n");  // no dst column
  EXPECT_THROW((void)html_report({run()}, ""), InputError);
  write("run/flows.csv", "");
  write("run/timeline.json", R"({"traceEvents":[{"ph":"X","pid":0,"tid":0,"ts":0)");
  EXPECT_THROW((void)html_report({run()}, ""), InputError);
}

TEST(ChartScale, LogOnlyWhereValuesSpanDecades) {
  EXPECT_EQ(value_scale({1, 5, 9})["type"], "linear");
  EXPECT_EQ(value_scale({0.1, 5, 900})["type"], "log");
  EXPECT_EQ(value_scale({0, 0.1, 900})["type"], "symlog");
  EXPECT_EQ(value_scale({})["type"], "linear");
}

TEST(ChartScale, HumanAxesTickInTheirUnits) {
  // τ in µs over three decades: one tick per decade, labelled by an expression with µs and ms.
  const Spec tau = human_axis({1, 10, 100, 1000}, ChartUnit::microseconds, true);
  EXPECT_EQ(tau["values"], Spec::parse("[1, 10, 100, 1000]"));
  const std::string expr = tau["labelExpr"];
  EXPECT_NE(expr.find("' µs'"), std::string::npos);
  EXPECT_NE(expr.find("' ms'"), std::string::npos);
  // Sizes in MiB: powers of two, at least four, whatever the range.
  for (auto [lo, hi, log] : {std::tuple{0.3, 200.0, true}, std::tuple{1.0, 6.0, true},
                             std::tuple{0.0, 3.0, false}, std::tuple{0.25, 0.3, false}}) {
    const Spec a = human_axis({lo, hi}, ChartUnit::mebibytes, log);
    EXPECT_GE(a["values"].size(), 4u) << a.dump();
    EXPECT_NE(a["labelExpr"].get<std::string>().find("' KiB'"), std::string::npos);
  }
}

TEST_F(Report, BenchChartsTellSchedulersApartAndLabelUnits) {
  if (chart_library_js().empty()) GTEST_SKIP() << "built without the chart library";
  std::string csv = "layers,tau_s,scheduler,iteration_time_s,peak_nic_buffer_B\n";
  for (const char* s : {"flux", "flux-greedy", "rotornet", "rotornet-vlb", "bvn", "bvn-periodic",
                        "spectra-phase", "static", "ideal"})
    for (double tau : {1e-6, 1e-5, 1e-4, 1e-3})
      csv += fmt::format("8,{},{},{},{}\n", tau, s, 0.02 + tau * 10, 3e5 + tau * 2e11);
  write("flux_bench.csv", csv);
  const std::string html = html_report({(dir_ / "flux_bench.csv").string()}, "");
  EXPECT_NE(html.find(R"("shape":{"field":"scheduler")"), std::string::npos);
  EXPECT_NE(html.find("reconfiguration delay τ"), std::string::npos);
  EXPECT_EQ(html.find("(µs)"), std::string::npos);  // the ticks carry the unit
  EXPECT_NE(html.find(R"("labelExpr")"), std::string::npos);
}

}  // namespace
}  // namespace flux::report_html
