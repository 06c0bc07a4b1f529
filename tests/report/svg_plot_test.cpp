#include "report/svg_plot.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <set>

namespace flux::report {
namespace {

PlotSeries series(std::string name, std::vector<double> x, std::vector<double> y,
                  bool dashed = false) {
  PlotSeries s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  s.dashed = dashed;
  return s;
}

int count(const std::string& s, const std::string& what) {
  int c = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++c;
  return c;
}

TEST(SvgPlot, LinearTicksAreNiceSteps) {
  EXPECT_EQ(axis_ticks(0.0, 1.0, false), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  const auto t = axis_ticks(0.013, 0.087, false);
  ASSERT_FALSE(t.empty());
  for (double v : t) EXPECT_TRUE(v >= 0.013 && v <= 0.087);
  EXPECT_EQ(t, (std::vector<double>{0.02, 0.04, 0.06, 0.08}));
  EXPECT_TRUE(axis_ticks(1.0, 1.0, false).empty());
}

TEST(SvgPlot, LogTicksAreDecadesOrOneTwoFive) {
  EXPECT_EQ(axis_ticks(1.0, 1e4, true), (std::vector<double>{1, 10, 100, 1000, 10000}));
  const auto t = axis_ticks(0.05, 2.0, true);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_DOUBLE_EQ(t.front(), 0.05);
  EXPECT_DOUBLE_EQ(t.back(), 2.0);
  EXPECT_TRUE(axis_ticks(-1.0, 10.0, true).empty());
}

TEST(SvgPlot, DrawsEverySeriesWithLegendAndDashes) {
  LinePlot p;
  p.title = "makespan <vs> delta & more";
  p.x.label = "delta";
  p.y.label = "makespan";
  p.series = {series("Spectra", {0.01, 0.02, 0.04}, {0.3, 0.35, 0.43}),
              series("LB", {0.01, 0.02, 0.04}, {0.29, 0.33, 0.41}, true)};
  const std::string svg = render_svg(p);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(svg, "<polyline"), 2);
  EXPECT_EQ(count(svg, "stroke-dasharray"), 2);  // the LB line and its legend entry
  EXPECT_NE(svg.find(">Spectra</text>"), std::string::npos);
  EXPECT_NE(svg.find("makespan &lt;vs&gt; delta &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SvgPlot, BadPointsBreakTheLine) {
  LinePlot p;
  p.y.log = true;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  p.series = {series("s", {1, 2, 3, 4, 5}, {1, 2, nan, 4, 5}), series("t", {1, 2, 3}, {1, -1, 3})};
  const std::string svg = render_svg(p);
  EXPECT_EQ(count(svg, "<polyline"), 2);  // s: [1,2] [4,5]; t: lone points, markers only
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgPlot, ConstantAndEmptyDataStillDraw) {
  LinePlot flat;
  flat.series = {series("c", {1, 1}, {2, 2})};
  const std::string a = render_svg(flat);
  EXPECT_EQ(a.find("nan"), std::string::npos);
  EXPECT_EQ(count(a, "<polyline"), 1);
  const std::string b = render_svg(LinePlot{});
  EXPECT_NE(b.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(b, "<polyline"), 0);
}

// The text of every match of `re`'s first group, in order.
std::vector<std::string> matches(const std::string& svg, const std::string& re) {
  std::vector<std::string> out;
  const std::regex r(re);
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), r); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

// Tick labels: x ticks are centred under the axis, y ticks right-aligned beside it.
std::vector<std::string> x_ticks(const std::string& svg) {
  return matches(svg, R"(<line [^>]*/><text [^>]*text-anchor="middle">([^<]*)</text>)");
}
std::vector<std::string> y_ticks(const std::string& svg) {
  return matches(svg, R"(text-anchor="end">([^<]*)</text>)");
}

TEST(SvgPlot, TauAxisIsLabelledInHumanUnits) {
  LinePlot p;
  p.x = {"reconfiguration delay", true, {}, {}, false, AxisUnit::seconds};
  p.y = {"iteration time", true, {}, {}, false, AxisUnit::seconds};
  p.series = {series("flux", {1e-6, 1e-5, 1e-4, 1e-3}, {0.05, 0.06, 0.2, 1.5})};
  const std::string svg = render_svg(p);
  EXPECT_EQ(x_ticks(svg), (std::vector<std::string>{"1 µs", "10 µs", "100 µs", "1 ms"}));
  const auto y = y_ticks(svg);
  EXPECT_EQ(y.front(), "50 ms");
  EXPECT_EQ(y.back(), "1 s");
  EXPECT_EQ(svg.find("e-0"), std::string::npos);  // no 1e-06
}

TEST(SvgPlot, ByteAxesUseBinaryUnitsAndEnoughTicks) {
  const double KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB;
  struct Case {
    double lo, hi;
    bool log;
  };
  for (const Case& c : {Case{MiB, 6 * MiB, true}, Case{3 * MiB, 3.5 * MiB, true},
                        Case{1, 2 * GiB, true}, Case{100 * KiB, 40 * MiB, true},
                        Case{0, 5 * GiB, false}, Case{2 * KiB, 1.9 * MiB, false}}) {
    LinePlot p;
    p.x.label = "layers";
    p.y = {"peak NIC buffer", c.log, {}, {}, false, AxisUnit::bytes};
    p.series = {series("flux", {1, 2}, {c.lo, c.hi})};
    const auto y = y_ticks(render_svg(p));
    SCOPED_TRACE(fmt::format("{} .. {} bytes, log {}", c.lo, c.hi, c.log));
    EXPECT_GE(y.size(), 4u);
    EXPECT_LE(y.size(), 12u);
    for (const std::string& t : y) EXPECT_TRUE(t == "0" || t.back() == 'B') << t;
  }
  EXPECT_EQ(byte_ticks(1, 2 * GiB, true),
            (std::vector<double>{1, 32, KiB, 32 * KiB, MiB, 32 * MiB, GiB}));
  EXPECT_EQ(tick_label(16 * MiB, AxisUnit::bytes), "16 MiB");
  EXPECT_EQ(tick_label(1.5e-3, AxisUnit::seconds), "1.5 ms");
  EXPECT_EQ(tick_label(0.25, AxisUnit::none), "0.25");
}

TEST(SvgPlot, NoLegendEntryForASeriesWithNothingDrawn) {
  LinePlot p;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PlotSeries lone = series("lone point, no markers", {1}, {1});
  lone.markers = false;
  p.series = {series("drawn", {1, 2}, {1, 2}), series("all failed", {1, 2}, {nan, nan}), lone,
              series("one marker", {2}, {2})};
  const std::string svg = render_svg(p);
  EXPECT_NE(svg.find(">drawn</text>"), std::string::npos);
  EXPECT_NE(svg.find(">one marker</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">all failed</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">lone point, no markers</text>"), std::string::npos);
}

TEST(SvgPlot, ManySeriesGetDistinctColoursAndMarkers) {
  LinePlot p;
  for (int k = 0; k < 12; ++k)
    p.series.push_back(series(fmt::format("s{}", k), {1, 2, 3}, {1.0 + k, 2.0 + k, 3.0 + k}));
  p.series[3].color = "#1f77b4";  // the palette's first colour, asked for by one series
  const std::string svg = render_svg(p);
  const auto strokes = matches(svg, R"re(<polyline fill="none" stroke="([^"]*)")re");
  ASSERT_EQ(strokes.size(), 12u);
  EXPECT_EQ(std::set<std::string>(strokes.begin(), strokes.end()).size(), 12u);
  // Marker kind (outline and fill) per colour: one kind per series, no two series alike.
  std::map<std::string, std::set<std::string>> kinds;
  const std::regex marker(
      R"re(<path d="M[-0-9.]+,[-0-9.]+([^"]*)" fill="([^"]*)" stroke="([^"]*)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), marker); it != std::sregex_iterator();
       ++it) {
    const std::string fill = (*it)[2] == (*it)[3] ? "filled" : "hollow";
    kinds[(*it)[3]].insert(std::string((*it)[1]) + " " + fill);
  }
  ASSERT_EQ(kinds.size(), 12u);
  std::set<std::string> all;
  for (const auto& [color, k] : kinds) {
    EXPECT_EQ(k.size(), 1u) << color;
    all.insert(*k.begin());
  }
  EXPECT_EQ(all.size(), 12u);
}

}  // namespace
}  // namespace flux::report
