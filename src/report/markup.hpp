#pragma once
// Text placed inside HTML or SVG (both XML-like): the characters that would end a text node or
// an attribute value become entities.
#include <string>
#include <string_view>

namespace flux::report {

[[nodiscard]] std::string escape_markup(std::string_view text);

}  // namespace flux::report
