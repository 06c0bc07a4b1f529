#include "report_html/report.hpp"

#include <fmt/format.h>

#include "report_html/inputs.hpp"
#include "report_html/sections.hpp"
#include "report_html/web_bundle.hpp"

namespace flux::report_html {

std::string html_report(const std::vector<std::string>& paths, const std::string& command_line,
                        Progress& progress) {
  ReportInputs in;
  {
    ProgressStage read(progress, "read inputs");
    in = read_report_inputs(paths);
  }
  std::vector<Section> sections;
  {
    const auto kinds = {summary_section, bench_section,  circuits_section,
                        gpu_section,     buffer_section, matrix_section};
    ProgressStage build(progress, "sections", static_cast<double>(kinds.size() + 1));
    for (auto section : kinds) {
      if (auto s = section(in)) sections.push_back(std::move(*s));
      build.advance();
    }
    sections.push_back(metadata_section(in));
    build.advance();
  }
  const std::string notes = fmt::format(
      "<p class=note>Made by <code>{}</code> (flux {}) from {} run(s){}{}. Charts: {}. Works "
      "offline: the chart library and the data are in this file.</p>\n",
      report::escape_markup(command_line), FLUX_VERSION, in.runs.size(),
      in.benches.empty() ? "" : fmt::format(", {} bench table(s)", in.benches.size()),
      in.matrix_schedules.empty()
          ? ""
          : fmt::format(", {} matrix schedule(s)", in.matrix_schedules.size()),
      chart_library_versions());
  return render_page("Flux report", notes, sections);
}

}  // namespace flux::report_html
