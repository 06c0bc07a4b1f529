#include "core/matrix.hpp"

#include <algorithm>
#include <utility>

namespace flux {

Matrix Matrix::borrow(const double* data, int n) {
  Matrix m;
  m.n_ = n;
  m.p_ = data;
  m.borrowed_ = true;
  return m;
}

Matrix::Matrix(const Matrix& o) : n_(o.n_), a_(o.p_, o.p_ + o.size()), p_(a_.data()) {}

Matrix::Matrix(Matrix&& o) noexcept
    : n_(o.n_), a_(std::move(o.a_)), p_(o.borrowed_ ? o.p_ : a_.data()), borrowed_(o.borrowed_) {
  o.n_ = 0;
  o.a_.clear();
  o.p_ = nullptr;
  o.borrowed_ = false;
}

Matrix& Matrix::operator=(const Matrix& o) {
  if (this != &o) *this = Matrix(o);
  return *this;
}

Matrix& Matrix::operator=(Matrix&& o) noexcept {
  if (this == &o) return *this;
  n_ = o.n_;
  a_ = std::move(o.a_);
  borrowed_ = o.borrowed_;
  p_ = borrowed_ ? o.p_ : a_.data();
  o.n_ = 0;
  o.a_.clear();
  o.p_ = nullptr;
  o.borrowed_ = false;
  return *this;
}

void Matrix::own() {
  a_.assign(p_, p_ + size());
  p_ = a_.data();
  borrowed_ = false;
}

bool Matrix::operator==(const Matrix& o) const {
  const auto a = data(), b = o.data();
  return n_ == o.n_ && std::equal(a.begin(), a.end(), b.begin(), b.end());
}

std::vector<double> Matrix::row_sums() const {
  std::vector<double> s(static_cast<std::size_t>(n_), 0.0);
  for (int i = 0; i < n_; ++i) {
    // A local sum, added in the same order: a sum kept in `s` is stored and reloaded for every
    // entry (it might alias the matrix), which made this the costliest pass of a plan.
    double sum = 0.0;
    for (int j = 0; j < n_; ++j) sum += (*this)(i, j);
    s[static_cast<std::size_t>(i)] = sum;
  }
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
  for (double v : data()) m = std::max(m, v);
  return m;
}

long long Matrix::nonzeros(double tol) const {
  const auto a = data();
  return std::count_if(a.begin(), a.end(), [tol](double v) { return v > tol; });
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
