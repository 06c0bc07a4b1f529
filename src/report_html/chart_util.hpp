#pragma once
// Small pieces shared by the report's chart specifications.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux {

using Spec = nlohmann::ordered_json;

// A Vega-Lite scale for `values`: logarithmic when they are all positive and span more than a
// decade, symmetric-log when some are zero and the rest span that much, linear otherwise.
[[nodiscard]] Spec value_scale(const std::vector<double>& values);

// A Vega-Lite unit spec skeleton: schema, inline data, width.
[[nodiscard]] Spec unit_spec(Spec values, int width);

// x in milliseconds, zoomable (drag to pan, wheel to zoom) for the Gantt-like charts.
[[nodiscard]] Spec zoom_param();

// Bytes in MiB, seconds in milliseconds, rounded so that the page stays small.
[[nodiscard]] double mib(double bytes);
[[nodiscard]] double ms(double seconds);

}  // namespace flux
