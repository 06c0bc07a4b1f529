#pragma once
// The report page: sections of HTML text and Vega-Lite charts, assembled into one HTML file
// that carries the chart library inline (no network request, opens from disk). The page holds
// data and chart specifications; the library draws them when the page is opened.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/markup.hpp"

namespace flux::report_html {

struct Chart {
  nlohmann::ordered_json spec;  // a Vega-Lite specification with its data inline
  bool canvas = false;          // many marks: a canvas draws them faster than SVG
};

// Marks past which a chart is drawn on a canvas rather than in SVG.
inline constexpr std::size_t kCanvasAbove = 3000;

struct Block {
  std::string html;            // written as is (callers escape their text with escape_markup)
  std::optional<Chart> chart;  // drawn after the html
};

struct Section {
  std::string id;
  std::string title;
  std::vector<Block> blocks;
};

// The whole page; `notes` (HTML) go under the title.
[[nodiscard]] std::string render_page(const std::string& title, const std::string& notes,
                                      const std::vector<Section>& sections);

}  // namespace flux::report_html
