#pragma once
// Dense square matrix of doubles, row-major. The demand matrix of the matrix model
// (docs/models.md).
#include <cassert>
#include <vector>

namespace flux {

class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(int n, double fill = 0.0)
      : n_(n), a_(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), fill) {}

  int n() const { return n_; }
  double operator()(int i, int j) const { return a_[index(i, j)]; }
  double& operator()(int i, int j) { return a_[index(i, j)]; }
  const double* row(int i) const { return &a_[index(i, 0)]; }
  double* row(int i) { return &a_[index(i, 0)]; }
  const std::vector<double>& data() const { return a_; }

  std::vector<double> row_sums() const;
  std::vector<double> col_sums() const;
  double max_line_sum() const;  // max over rows and columns of their sums
  double max_entry() const;
  long long nonzeros(double tol = 0.0) const;
  int max_line_nonzeros(double tol = 0.0) const;  // Δ
  Matrix scaled(double factor) const;

  bool operator==(const Matrix&) const = default;

 private:
  std::size_t index(int i, int j) const {
    assert(i >= 0 && i < n_ && j >= 0 && j < n_);
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j);
  }
  int n_ = 0;
  std::vector<double> a_;
};

}  // namespace flux
