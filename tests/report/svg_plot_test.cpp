#include "report/svg_plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace flux {
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
  EXPECT_EQ(count(svg, "<polyline"), 4);  // s: [1,2] [4,5]; t: [1] [3]
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

}  // namespace
}  // namespace flux
