#include "spectra/support.hpp"

#include <algorithm>

namespace flux {

int Support::find(int i, int j) const {
  const auto first = col.begin() + row_start[static_cast<std::size_t>(i)];
  const auto last = col.begin() + row_start[static_cast<std::size_t>(i) + 1];
  const auto it = std::lower_bound(first, last, j);
  return (it != last && *it == j) ? static_cast<int>(it - col.begin()) : -1;
}

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

}  // namespace flux
