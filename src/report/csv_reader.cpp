#include "report/csv_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/error.hpp"

namespace flux::report {
namespace {

// Splits the text into records of fields; `lines` gets each record's first line.
std::vector<std::vector<std::string>> parse_records(std::string_view text, const std::string& file,
                                                    std::vector<std::size_t>& lines) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  std::size_t line = 1, i = 0;
  bool quoted = false, any = false;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
  };
  auto end_record = [&] {
    end_field();
    records.push_back(std::move(record));
    record.clear();
    any = false;
  };
  while (i < text.size()) {
    const char c = text[i++];
    if (!any) lines.push_back(line);
    any = true;
    if (quoted) {
      if (c == '"' && i < text.size() && text[i] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        line += c == '\n';
        field += c;
      }
    } else if (c == '"' && field.empty()) {
      quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i < text.size() && text[i] == '\n') ++i;
      ++line;
      end_record();
    } else {
      field += c;
    }
  }
  if (quoted) throw InputError(file, fmt::format("line {}", lines.back()), "a closing quote");
  if (any) end_record();
  return records;
}

}  // namespace

CsvTable::CsvTable(std::string_view text, std::string file) : file_(std::move(file)) {
  rows_ = parse_records(text, file_, lines_);
  if (rows_.empty()) throw InputError(file_, "line 1", "a CSV header");
  header_ = std::move(rows_.front());
  rows_.erase(rows_.begin());
  lines_.erase(lines_.begin());
  for (std::size_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].size() != header_.size())
      throw InputError(
          file_, fmt::format("line {}", lines_[r]),
          fmt::format("{} fields like the header, found {}", header_.size(), rows_[r].size()));
}

bool CsvTable::has_column(std::string_view name) const {
  return std::find(header_.begin(), header_.end(), name) != header_.end();
}

std::size_t CsvTable::column(std::string_view name) const {
  auto it = std::find(header_.begin(), header_.end(), name);
  if (it == header_.end())
    throw InputError(file_, "line 1", fmt::format("a column named \"{}\"", name));
  return static_cast<std::size_t>(it - header_.begin());
}

void CsvTable::fail(std::size_t row, std::size_t col, const std::string& expected) const {
  throw InputError(file_, fmt::format("line {}, column {}", lines_[row], header_[col]),
                   fmt::format("{}, found \"{}\"", expected, rows_[row][col]));
}

double CsvTable::number(std::size_t row, std::size_t col) const {
  const std::string& s = rows_[row][col];
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    fail(row, col, "a finite number");
  return v;
}

long long CsvTable::integer(std::size_t row, std::size_t col, long long lo, long long hi) const {
  const std::string& s = rows_[row][col];
  long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
    fail(row, col, fmt::format("an integer in [{}, {}]", lo, hi));
  return v;
}

}  // namespace flux::report
