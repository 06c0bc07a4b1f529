#pragma once
// The one CSV writer behind every CSV file Flux writes (RFC 4180): fields are separated by commas,
// and a field holding a comma, a double quote, CR or LF is enclosed in double quotes with each of
// its quotes doubled, so a task named `aten::mm, "fused" op` stays one field for any CSV reader.
// Records end in LF (RFC 4180 says CRLF; readers accept both and LF keeps the files diffable).
// Numbers are written with fmt's "{}" (shortest round-trip form); to fix a precision, format the
// number into a string first. O(output size).
#include <fmt/format.h>

#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/short_decimal.hpp"

namespace flux::report {

// Appends one field to `out`, quoted only when it has to be.
void append_csv_field(std::string& out, std::string_view field);

// Appends a number as fmt's "{}" writes it (most are times and sizes: see short_decimal.hpp).
inline void append_csv_number(std::string& out, double v) {
  char buf[40];
  if (const char* end = write_short_decimal(buf, v, WholeNumber::bare))
    out.append(buf, static_cast<std::size_t>(end - buf));
  else
    fmt::format_to(std::back_inserter(out), "{}", v);
}

// Appends one record (comma-separated fields and a newline) to `out`.
template <class... Fields>
void append_csv_record(std::string& out, const Fields&... fields) {
  bool first = true;
  auto add = [&out, &first](const auto& field) {
    if (!first) out += ',';
    first = false;
    if constexpr (std::is_convertible_v<decltype(field), std::string_view>)
      append_csv_field(out, field);
    else if constexpr (std::is_same_v<std::decay_t<decltype(field)>, double>)
      append_csv_number(out, field);
    else  // numbers: nothing to quote
      fmt::format_to(std::back_inserter(out), "{}", field);
  };
  (add(fields), ...);
  out += '\n';
}

template <class... Fields>
[[nodiscard]] std::string csv_record(const Fields&... fields) {
  std::string out;
  append_csv_record(out, fields...);
  return out;
}

}  // namespace flux::report
