#pragma once
// Reading back the CSV files Flux writes (RFC 4180, the writer in report/csv.hpp): a header
// record, then records of the same width. Quoted fields may hold commas, quotes and newlines.
// A malformed file is an InputError naming the file, the line and what was expected. O(size).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace flux::report {

class CsvTable {
 public:
  // Parses `text`; `file` names it in errors. Every record must have the header's width.
  CsvTable(std::string_view text, std::string file);

  // Index of a header column; an InputError when the file has no such column.
  [[nodiscard]] std::size_t column(std::string_view name) const;
  [[nodiscard]] bool has_column(std::string_view name) const;
  [[nodiscard]] std::size_t rows() const { return rows_.size(); }
  [[nodiscard]] const std::string& text(std::size_t row, std::size_t col) const {
    return rows_[row][col];
  }
  // A finite number; an InputError naming the line and the column otherwise.
  [[nodiscard]] double number(std::size_t row, std::size_t col) const;
  // An integer in [lo, hi].
  [[nodiscard]] long long integer(std::size_t row, std::size_t col, long long lo,
                                  long long hi) const;
  [[nodiscard]] const std::vector<std::string>& header() const { return header_; }
  [[nodiscard]] const std::string& file() const { return file_; }
  // The line a record starts on (1-based), for errors about a whole record.
  [[nodiscard]] std::size_t line(std::size_t row) const { return lines_[row]; }

 private:
  [[noreturn]] void fail(std::size_t row, std::size_t col, const std::string& expected) const;
  std::string file_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> lines_;  // the line each record starts on (1-based)
};

}  // namespace flux::report
