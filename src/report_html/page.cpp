#include "report_html/page.hpp"

#include <fmt/format.h>

#include <cctype>
#include <stdexcept>

#include "core/error.hpp"
#include "report_html/web_bundle.hpp"

namespace flux::report_html {
namespace {

// JSON inside <script> must not close the element: "</" becomes "<\\/", the same string in JSON.
std::string json_in_script(std::string text) {
  for (std::size_t i = text.find("</"); i != std::string::npos; i = text.find("</", i + 3))
    text.replace(i, 2, "<\\/");
  return text;
}

// Nor may JavaScript: the build refuses a library holding "</script" (checked here, once).
std::string_view js_in_script(std::string_view js) {
  std::string lower(js.size(), ' ');
  for (std::size_t i = 0; i < js.size(); ++i)
    lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(js[i])));
  if (lower.find("</script") != std::string::npos)
    throw std::logic_error("the chart library holds </script and cannot be inlined");
  return js;
}

constexpr std::string_view kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 24px 48px;color:#222}
h1{margin:24px 0 4px}h2{margin-top:36px;border-bottom:1px solid #ccc}h3{margin:20px 0 6px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
th{background:#f4f4f4}td.k,th.k{text-align:left}p.note{color:#555;max-width:1000px}
nav a{margin-right:12px}.chart{margin:8px 0 16px}details{margin:6px 0}code{font-size:12px}
.vega-bindings{font-size:12px;margin:4px 0}.vega-bind{display:inline-block;margin-right:16px}
)";

// Draws every chart; records the views so that a test can count the marks, and says on the body
// when all are drawn ("data-rendered") or which failed.
constexpr std::string_view kLoader = R"(
(function () {
  function failed(e) { document.body.setAttribute('data-rendered', 'error'); console.error(e); }
  try {
    var data = JSON.parse(document.getElementById('flux-charts').textContent);
    window.fluxViews = {};
    var actions = {export: true, source: false, compiled: false, editor: false};
    Promise.all(data.map(function (c) {
      return vegaEmbed('#' + c.id, c.spec, {renderer: c.renderer, actions: actions})
        .then(function (r) { window.fluxViews[c.id] = r.view; });
    })).then(function () { document.body.setAttribute('data-rendered', 'true'); }, failed);
  } catch (e) { failed(e); }
})();
)";

}  // namespace

std::string render_page(const std::string& title, const std::string& notes,
                        const std::vector<Section>& sections) {
  if (chart_library_js().empty())
    throw InputError("", "flux report",
                     "a build with the chart library (run scripts/install-deps.sh, which "
                     "installs it with npm ci into report/web, then rebuild)");
  std::string body, nav;
  nlohmann::ordered_json charts = nlohmann::ordered_json::array();
  int next = 0;
  for (const Section& s : sections) {
    nav += fmt::format("<a href=\"#{}\">{}</a>", s.id, report::escape_markup(s.title));
    body += fmt::format("<section id=\"{}\" data-charts=\"", s.id);
    int count = 0;
    std::string inner;
    for (const Block& b : s.blocks) {
      inner += b.html;
      if (!b.chart) continue;
      const std::string id = fmt::format("chart{}", next++);
      ++count;
      inner += fmt::format("<div class=\"chart\" id=\"{}\"></div>\n", id);
      charts.push_back(
          {{"id", id}, {"renderer", b.chart->canvas ? "canvas" : "svg"}, {"spec", b.chart->spec}});
    }
    body += fmt::format("{}\"><h2>{}</h2>\n{}</section>\n", count, report::escape_markup(s.title),
                        inner);
  }
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{0}</title>\n"
      "<style>{1}</style>\n<script>{2}</script>\n</head><body data-rendered=\"false\">\n"
      "<h1>{0}</h1>\n{3}<nav>{4}</nav>\n{5}"
      "<script type=\"application/json\" id=\"flux-charts\">{6}</script>\n<script>{7}</script>\n"
      "</body></html>\n",
      report::escape_markup(title), kStyle, js_in_script(chart_library_js()), notes, nav, body,
      json_in_script(charts.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
      kLoader);
}

}  // namespace flux::report_html
