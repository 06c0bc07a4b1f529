#pragma once
// The chart library (Vega, Vega-Lite, vega-embed, minified, from the npm packages pinned in
// report/web/package-lock.json), built into the binary so that `flux report` needs no files
// at run time and its pages need no network.
#include <string_view>

namespace flux::report_html {

// Empty when the build found no installed packages (scripts/install-deps.sh installs them).
[[nodiscard]] std::string_view chart_library_js();
[[nodiscard]] std::string_view chart_library_versions();  // "vega 6.2.0, vega-lite ..."

}  // namespace flux::report_html
