#include "spectra/support.hpp"

#include <algorithm>

namespace flux::spectra {

Support make_support(const Matrix& d, double tol) {
  Support s;
  s.n = d.n();
  s.row_start.reserve(static_cast<std::size_t>(s.n) + 1);
  s.row_start.push_back(0);
  for (int i = 0; i < s.n; ++i) {
    const double* row = d.row(i);
    for (int j = 0; j < s.n; ++j)
      if (row[j] > tol) {
        s.col.push_back(j);
        s.value.push_back(row[j]);
      }
    s.row_start.push_back(static_cast<int>(s.col.size()));
  }
  return s;
}

int max_line_entries(const Support& s) {
  std::vector<int> cols(static_cast<std::size_t>(s.n), 0);
  int m = 0;
  for (int i = 0; i < s.n; ++i)
    m = std::max(
        m, s.row_start[static_cast<std::size_t>(i) + 1] - s.row_start[static_cast<std::size_t>(i)]);
  for (int j : s.col) m = std::max(m, ++cols[static_cast<std::size_t>(j)]);
  return m;
}

double largest_entry(const Support& s) {
  double m = 0.0;
  for (double v : s.value) m = std::max(m, v);
  return m;
}

double max_line_sum(const Support& s) {
  std::vector<double> rows(static_cast<std::size_t>(s.n), 0.0), cols(rows);
  for (int i = 0; i < s.n; ++i)
    for (int e = s.row_start[static_cast<std::size_t>(i)];
         e < s.row_start[static_cast<std::size_t>(i) + 1]; ++e) {
      rows[static_cast<std::size_t>(i)] += s.value[static_cast<std::size_t>(e)];
      cols[static_cast<std::size_t>(s.col[static_cast<std::size_t>(e)])] +=
          s.value[static_cast<std::size_t>(e)];
    }
  double m = 0.0;
  for (double v : rows) m = std::max(m, v);
  for (double v : cols) m = std::max(m, v);
  return m;
}

}  // namespace flux::spectra
