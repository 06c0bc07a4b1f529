#pragma once
// A small, independent RFC 4180 reader for the tests, so that what Flux's CSV writer produces is
// checked by a parser that does not share its code: records separated by LF or CRLF, fields by
// commas; a field that starts with a double quote runs to the closing quote, "" inside it is one
// quote, and commas, CR and LF inside it are data. Throws on a malformed quoted field.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace flux::testing {

using CsvRecord = std::vector<std::string>;

inline std::vector<CsvRecord> parse_csv(std::string_view text) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  std::size_t i = 0;
  auto end_field = [&] { record.push_back(std::move(field)), field.clear(); };
  auto end_record = [&] { end_field(), records.push_back(std::move(record)), record.clear(); };
  while (i < text.size()) {
    if (text[i] == '"' && field.empty()) {  // quoted field
      for (++i;; ++i) {
        if (i >= text.size()) throw std::runtime_error("unterminated quoted field");
        if (text[i] != '"') {
          field += text[i];
        } else if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"', ++i;
        } else {
          ++i;
          break;
        }
      }
      if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        throw std::runtime_error("text after a closing quote");
      continue;
    }
    if (text[i] == ',') {
      end_field();
    } else if (text[i] == '\n') {
      end_record();
    } else if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      end_record(), ++i;
    } else {
      field += text[i];
    }
    ++i;
  }
  if (!field.empty() || !record.empty()) end_record();  // last record without a line break
  return records;
}

}  // namespace flux::testing
