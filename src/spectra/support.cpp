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

}  // namespace flux::spectra
