// Run metadata: every summary rendered as key/value (whatever blocks it has: scheduler, scenario,
// solver, provenance), and the files the page was made from with their size and hash.
#include <fmt/format.h>

#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

using Json = nlohmann::ordered_json;

// One row per leaf, keyed by its dotted path; short arrays of scalars stay on one row.
void flatten(const Json& j, const std::string& key, std::string& rows) {
  if (j.is_object() && !j.empty()) {
    for (const auto& [k, v] : j.items()) flatten(v, key.empty() ? k : key + "." + k, rows);
    return;
  }
  bool scalars = j.is_array();
  if (j.is_array())
    for (const Json& v : j) scalars = scalars && !v.is_structured();
  if (j.is_array() && !(scalars && j.size() <= 16)) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], fmt::format("{}[{}]", key, i), rows);
    return;
  }
  const std::string text =
      j.is_string() ? j.get<std::string>() : j.dump(-1, ' ', false, Json::error_handler_t::replace);
  rows += fmt::format("<tr><td class=k>{}</td><td class=k><code>{}</code></td></tr>\n",
                      report::escape_markup(key), report::escape_markup(text));
}

}  // namespace

Section metadata_section(const ReportInputs& in) {
  Section s{"metadata", "Run metadata", {}};
  bool first = true;
  for (const RunData& r : in.runs) {
    if (!r.summary) continue;
    std::string rows;
    flatten(*r.summary, "", rows);
    s.blocks.push_back({fmt::format("<details{}><summary>{} <code>{}</code></summary>\n<table>"
                                    "{}</table></details>\n",
                                    first ? " open" : "", report::escape_markup(r.label),
                                    report::escape_markup(r.source), rows),
                        std::nullopt});
    first = false;
  }
  for (const auto& [path, meta] : in.other_metadata) {
    std::string rows;
    flatten(meta, "", rows);
    s.blocks.push_back({fmt::format("<details><summary><code>{}</code></summary>\n<table>{}"
                                    "</table></details>\n",
                                    report::escape_markup(path), rows),
                        std::nullopt});
  }
  std::string files =
      "<h3>Input files</h3>\n<table><tr><th class=k>file</th><th>bytes</th>"
      "<th class=k>SHA-256</th></tr>\n";
  for (const InputFile& f : in.files)
    files += fmt::format(
        "<tr><td class=k>{}</td><td>{}</td><td class=k><code>{}</code></td>"
        "</tr>\n",
        report::escape_markup(f.path), f.bytes, f.sha256);
  s.blocks.push_back({files + "</table>\n", std::nullopt});
  return s;
}

}  // namespace flux::report_html
