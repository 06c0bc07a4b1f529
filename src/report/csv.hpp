#pragma once
// The one CSV writer behind every CSV file Flux writes (RFC 4180): fields are separated by commas,
// and a field holding a comma, a double quote, CR or LF is enclosed in double quotes with each of
// its quotes doubled, so a task named `aten::mm, "fused" op` stays one field for any CSV reader.
// Records end in LF (RFC 4180 says CRLF; readers accept both and LF keeps the files diffable).
// Numbers are written with fmt's "{}" (shortest round-trip form); to fix a precision, format the
// number into a string first. O(output size).
#include <fmt/format.h>

#include <charconv>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/short_decimal.hpp"

namespace flux::report {

// Appends one field to `out`, quoted only when it has to be.
void append_csv_field(std::string& out, std::string_view field);

// Writes a number as fmt's "{}" writes it to `out` (40 bytes free) and returns the end: most are
// times and sizes (see short_decimal.hpp), and integers need none of fmt's machinery per field.
inline char* write_csv_number(char* out, double v) {
  if (char* end = write_short_decimal(out, v, WholeNumber::bare)) return end;
  return fmt::format_to(out, "{}", v);
}
template <class Int,
          std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>, int> = 0>
char* write_csv_number(char* out, Int v) {
  return std::to_chars(out, out + 24, v).ptr;
}

// Appends a number as fmt's "{}" writes it.
inline void append_csv_number(std::string& out, double v) {
  char buf[40];
  out.append(buf, static_cast<std::size_t>(write_csv_number(buf, v) - buf));
}

// Appends one record (comma-separated fields and a newline) to `out`.
template <class... Fields>
void append_csv_record(std::string& out, const Fields&... fields) {
  bool first = true;
  auto add = [&out, &first](const auto& field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_convertible_v<decltype(field), std::string_view>) {
      if (!first) out += ',';
      append_csv_field(out, field);
    } else if constexpr (std::is_same_v<Field, double> ||
                         (std::is_integral_v<Field> && !std::is_same_v<Field, bool>)) {
      char buf[48];  // the separator and the number in one append
      buf[0] = ',';
      const char* from = first ? buf + 1 : buf;
      out.append(from, static_cast<std::size_t>(write_csv_number(buf + 1, field) - from));
    } else {  // other numbers: nothing to quote
      if (!first) out += ',';
      fmt::format_to(std::back_inserter(out), "{}", field);
    }
    first = false;
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
