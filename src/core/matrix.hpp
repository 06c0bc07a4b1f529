#pragma once
// Dense square matrix of doubles, row-major. The demand matrix of the matrix model
// (docs/models.md).
//
// A Matrix usually owns its entries. Matrix::borrow reads someone else's memory in place instead
// (a numpy array handed over from Python): no copy, and the kernels read it through the same
// plain pointer as an owned matrix (no virtual call, no branch on reads). Copying a borrowed
// matrix gives an owning copy; a non-const element or row access first takes a copy of the
// entries, so the lender's memory is never written (read a borrowed matrix through a const
// reference to read it in place).
#include <cassert>
#include <cstddef>
#include <span>
#include <vector>

namespace flux {

class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(int n, double fill = 0.0)
      : n_(n), a_(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), fill), p_(a_.data()) {}
  // `n` x `n` row-major entries at `data`, read in place; `data` must outlive the matrix and
  // stay unchanged while it is used.
  [[nodiscard]] static Matrix borrow(const double* data, int n);

  Matrix(const Matrix& o);  // always an owning copy
  Matrix(Matrix&& o) noexcept;
  Matrix& operator=(const Matrix& o);
  Matrix& operator=(Matrix&& o) noexcept;
  ~Matrix() = default;

  int n() const { return n_; }
  bool borrowed() const { return borrowed_; }
  double operator()(int i, int j) const { return p_[index(i, j)]; }
  double& operator()(int i, int j) {
    if (borrowed_) [[unlikely]]
      own();
    return a_[index(i, j)];
  }
  const double* row(int i) const { return p_ + index(i, 0); }
  double* row(int i) {
    if (borrowed_) [[unlikely]]
      own();
    return a_.data() + index(i, 0);
  }
  std::span<const double> data() const { return {p_, size()}; }

  std::vector<double> row_sums() const;
  std::vector<double> col_sums() const;
  double max_line_sum() const;  // max over rows and columns of their sums
  double max_entry() const;
  long long nonzeros(double tol = 0.0) const;
  int max_line_nonzeros(double tol = 0.0) const;  // Δ
  Matrix scaled(double factor) const;

  bool operator==(const Matrix& o) const;

 private:
  std::size_t size() const { return static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_); }
  std::size_t index(int i, int j) const {
    assert(i >= 0 && i < n_ && j >= 0 && j < n_);
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j);
  }
  void own();  // copies borrowed entries into a_

  int n_ = 0;
  std::vector<double> a_;      // the entries when owned, empty when borrowed
  const double* p_ = nullptr;  // the entries: a_.data(), or the lender's memory
  bool borrowed_ = false;
};

}  // namespace flux
