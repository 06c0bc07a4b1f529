#include "core/matrix.hpp"

#include <algorithm>

namespace flux {

std::vector<double> Matrix::row_sums() const {
  std::vector<double> s(static_cast<std::size_t>(n_), 0.0);
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < n_; ++j) s[static_cast<std::size_t>(i)] += (*this)(i, j);
  return s;
}

std::vector<double> Matrix::col_sums() const {
  std::vector<double> s(static_cast<std::size_t>(n_), 0.0);
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < n_; ++j) s[static_cast<std::size_t>(j)] += (*this)(i, j);
  return s;
}

double Matrix::max_line_sum() const {
  double m = 0.0;
  for (double v : row_sums()) m = std::max(m, v);
  for (double v : col_sums()) m = std::max(m, v);
  return m;
}

double Matrix::max_entry() const {
  double m = 0.0;
  for (double v : a_) m = std::max(m, v);
  return m;
}

long long Matrix::nonzeros(double tol) const {
  return std::count_if(a_.begin(), a_.end(), [tol](double v) { return v > tol; });
}

int Matrix::max_line_nonzeros(double tol) const {
  std::vector<int> rows(static_cast<std::size_t>(n_), 0), cols(static_cast<std::size_t>(n_), 0);
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < n_; ++j)
      if ((*this)(i, j) > tol) {
        ++rows[static_cast<std::size_t>(i)];
        ++cols[static_cast<std::size_t>(j)];
      }
  int m = 0;
  for (int v : rows) m = std::max(m, v);
  for (int v : cols) m = std::max(m, v);
  return m;
}

Matrix Matrix::scaled(double factor) const {
  Matrix r = *this;
  for (double& v : r.a_) v *= factor;
  return r;
}

}  // namespace flux
