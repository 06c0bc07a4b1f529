#include "spectra/support.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace flux::spectra {

namespace {

// Appends the entries of one row above `tol`; with `kCheck`, throws as check_problem does if the
// row holds an invalid entry. Blocks of eight: the zeros that make most of a large demand are
// skipped a block at a time, and the validity test folds into the same read of the row.
template <bool kCheck>
void append_row(const double* row, int n, double tol, Support& s) {
  constexpr int kBlock = 8;
  bool ok = true;
  auto take = [&](int j) {
    if (row[j] > tol) {
      s.col.push_back(j);
      s.value.push_back(row[j]);
    }
  };
  int j = 0;
  for (; j + kBlock <= n; j += kBlock) {
    bool any = false;
    for (int k = 0; k < kBlock; ++k) {
      any |= row[j + k] > tol;
      if constexpr (kCheck) ok &= matrix::valid_demand(row[j + k]);
    }
    if (any)
      for (int k = 0; k < kBlock; ++k) take(j + k);
  }
  for (; j < n; ++j) {
    if constexpr (kCheck) ok &= matrix::valid_demand(row[j]);
    take(j);
  }
  if (!ok) matrix::throw_invalid_demand();
}

template <bool kCheck>
Support collect_support(const Matrix& d, double tol) {
  Support s;
  s.n = d.n();
  s.row_start.reserve(static_cast<std::size_t>(s.n) + 1);
  s.row_start.push_back(0);
  for (int i = 0; i < s.n; ++i) {
    append_row<kCheck>(d.row(i), s.n, tol, s);
    s.row_start.push_back(static_cast<int>(s.col.size()));
  }
  return s;
}

// collect_support<true> of a demand whose other entries are +0: only the listed ones are read.
Support collect_listed_support(const Matrix& d, const std::vector<std::pair<int, int>>& positions) {
  Support s;
  s.n = d.n();
  s.row_start.assign(1, 0);
  s.row_start.reserve(static_cast<std::size_t>(s.n) + 1);
  bool ok = true;
  std::pair<int, int> last{0, -1};
  for (const auto& [i, j] : positions) {
    if (i < 0 || j < 0 || i >= s.n || j >= s.n || std::pair{i, j} <= last)
      throw std::logic_error("demand positions out of range or not in row-major order");
    last = {i, j};
    while (static_cast<int>(s.row_start.size()) <= i)
      s.row_start.push_back(static_cast<int>(s.col.size()));
    const double v = d(i, j);
    ok &= matrix::valid_demand(v);
    if (v > 0.0) {
      s.col.push_back(j);
      s.value.push_back(v);
    }
  }
  if (!ok) matrix::throw_invalid_demand();
  while (static_cast<int>(s.row_start.size()) <= s.n)
    s.row_start.push_back(static_cast<int>(s.col.size()));
  return s;
}

}  // namespace

Support make_support(const Matrix& d, double tol) {
  return collect_support<false>(d, tol);
}

Support make_checked_support(const matrix::MatrixProblem& p) {
  matrix::check_settings(p);
  return p.positions ? collect_listed_support(p.time, *p.positions)
                     : collect_support<true>(p.time, 0.0);
}

Support residual_support(const Support& s, const std::vector<double>& residual, double tol) {
  Support r;
  r.n = s.n;
  r.row_start.reserve(static_cast<std::size_t>(s.n) + 1);
  r.row_start.push_back(0);
  for (int i = 0; i < s.n; ++i) {
    for (int e = s.row_start[static_cast<std::size_t>(i)];
         e < s.row_start[static_cast<std::size_t>(i) + 1]; ++e)
      if (residual[static_cast<std::size_t>(e)] > tol) {
        r.col.push_back(s.col[static_cast<std::size_t>(e)]);
        r.value.push_back(residual[static_cast<std::size_t>(e)]);
      }
    r.row_start.push_back(static_cast<int>(r.col.size()));
  }
  return r;
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
