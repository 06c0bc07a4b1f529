#pragma once
// Small pieces shared by the report's chart specifications.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux::report_html {

using Spec = nlohmann::ordered_json;

// A Vega-Lite scale for `values`: logarithmic when they are all positive and span more than a
// decade, symmetric-log when some are zero and the rest span that much, linear otherwise.
[[nodiscard]] Spec value_scale(const std::vector<double>& values);

// A Vega-Lite unit spec skeleton: schema, inline data, width.
[[nodiscard]] Spec unit_spec(Spec values, int width);

// x in milliseconds, zoomable (drag to pan, wheel to zoom) for the Gantt-like charts.
[[nodiscard]] Spec zoom_param();

// What a chart's values are: times in milliseconds or microseconds, sizes in MiB.
enum class ChartUnit { milliseconds, microseconds, mebibytes };

// An axis whose ticks say their unit ("10 µs", "1 ms"; "256 KiB", "4 MiB"): explicit tick values
// (decades for times on a log scale, powers of two for sizes, at least four of them where the
// range allows) and a label expression that picks the unit per tick. `values` are in `unit`.
[[nodiscard]] Spec human_axis(const std::vector<double>& values, ChartUnit unit, bool log);

// Bytes in MiB, seconds in milliseconds, rounded so that the page stays small.
[[nodiscard]] double mib(double bytes);
[[nodiscard]] double ms(double seconds);

}  // namespace flux::report_html
