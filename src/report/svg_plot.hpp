#pragma once
// A small, dependency-free SVG line chart: axes with "nice" ticks (1-2-5 steps, or decades on a
// log scale), grid, title, axis labels, one polyline per series (solid or dashed, with point
// markers) and a legend. Used for the matrix bench figures and the simulator's figures.
// Axes that carry seconds or bytes label their ticks in human units (1 µs, 1 ms; 4 KiB, 16 MiB),
// byte axes stepping by powers of two. Each series gets its own colour and marker shape (a dozen
// distinct ones), so that many series on one chart stay apart in print and in grey scale; a
// series with nothing to draw gets no legend entry.
//
// Robust to awkward data: non-finite points, and non-positive points on a log axis, break the
// line instead of corrupting it; an empty or constant range is widened so the chart still draws.
// Deterministic output (fixed number formatting), so figures can be diffed.
// Complexity: O(total points).
#include <optional>
#include <string>
#include <vector>

namespace flux::report {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;  // same length
  bool dashed = false;
  bool markers = true;
  std::string color;  // CSS colour; empty = the next colour of the built-in palette
};

// What the values on an axis measure: plain numbers, seconds or bytes.
enum class AxisUnit { none, seconds, bytes };

struct PlotAxis {
  std::string label;  // without the unit when `unit` is set: the tick labels carry it
  bool log = false;
  std::optional<double> min, max;  // fixed range; default = the data's range (0-based if linear
                                   // and all data >= 0 when `from_zero`)
  bool from_zero = false;
  AxisUnit unit = AxisUnit::none;
};

struct LinePlot {
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
  int width = 720;
  int height = 420;
};

[[nodiscard]] std::string render_svg(const LinePlot& plot);

// Tick positions for [lo, hi]: multiples of 1, 2 or 5 x 10^k (about `target` of them), or the
// powers of ten (with 2 and 5 in between when the range spans less than three decades) on a log
// scale. Exposed for tests.
// A range under one 1-2-5 step on a log scale gets linear ticks instead.
[[nodiscard]] std::vector<double> axis_ticks(double lo, double hi, bool log, int target = 6);

// Ticks for a byte axis: powers of two on a log scale (every 1st, 2nd, 5th, 10th, 20th ... one,
// so that 4 to 10 remain), 1-2-5 steps of the largest binary unit (KiB, MiB, ...) below the
// range's top on a linear one.
[[nodiscard]] std::vector<double> byte_ticks(double lo, double hi, bool log, int target = 6);

// A tick's label: "10 µs", "1.5 ms", "16 MiB", or the plain number for AxisUnit::none.
[[nodiscard]] std::string tick_label(double v, AxisUnit unit);

}  // namespace flux::report
