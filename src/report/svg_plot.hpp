#pragma once
// A small, dependency-free SVG line chart: axes with "nice" ticks (1-2-5 steps, or decades on a
// log scale), grid, title, axis labels, one polyline per series (solid or dashed, with point
// markers) and a legend. Used for the matrix bench figures and the simulator's figures.
//
// Robust to awkward data: non-finite points, and non-positive points on a log axis, break the
// line instead of corrupting it; an empty or constant range is widened so the chart still draws.
// Deterministic output (fixed number formatting), so figures can be diffed.
// Complexity: O(total points).
#include <optional>
#include <string>
#include <vector>

namespace flux {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;  // same length
  bool dashed = false;
  bool markers = true;
  std::string color;  // CSS colour; empty = the next colour of the built-in palette
};

struct PlotAxis {
  std::string label;
  bool log = false;
  std::optional<double> min, max;  // fixed range; default = the data's range (0-based if linear
                                   // and all data >= 0 when `from_zero`)
  bool from_zero = false;
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
[[nodiscard]] std::vector<double> axis_ticks(double lo, double hi, bool log, int target = 6);

}  // namespace flux
