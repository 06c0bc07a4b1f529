#pragma once
// The support of a demand matrix (its non-zero entries) in compressed sparse rows, the shape every
// Spectra kernel iterates over instead of the dense n x n matrix. Building it is O(n^2); all
// later work is O(non-zeros).
#include <algorithm>
#include <vector>

#include "core/matrix.hpp"
#include "matrix/algorithm.hpp"

namespace flux::spectra {

struct Support {
  int n = 0;
  std::vector<int> row_start;  // size n+1
  std::vector<int> col;        // column of each entry, ascending within a row
  std::vector<double> value;   // D[i][col]

  [[nodiscard]] int size() const { return static_cast<int>(col.size()); }
  // Entry index of (i, j), or -1 if D[i][j] is zero. O(log degree); inline: DECOMPOSE and the
  // LP call it once per row and permutation.
  [[nodiscard]] int find(int i, int j) const {
    const auto first = col.begin() + row_start[static_cast<std::size_t>(i)];
    const auto last = col.begin() + row_start[static_cast<std::size_t>(i) + 1];
    const auto it = std::lower_bound(first, last, j);
    return (it != last && *it == j) ? static_cast<int>(it - col.begin()) : -1;
  }
};

// Entries with D[i][j] > tol (Spectra's DECOMPOSE uses tol = 0).
[[nodiscard]] Support make_support(const Matrix& d, double tol = 0.0);
// check_problem(p) and make_support(p.time) in one pass over the demand: on a large sparse
// demand each of them is a read of the whole n x n matrix, bound by memory bandwidth. Where
// p.positions lists the entries that may be non-zero, only those are read (O(n + listed)).
[[nodiscard]] Support make_checked_support(const matrix::MatrixProblem& p);
// The support of the entries of `s` whose `residual` (one per entry) is above `tol` >= 0, with
// those residuals as values: make_support of the dense residual, without building it.
[[nodiscard]] Support residual_support(const Support& s, const std::vector<double>& residual,
                                       double tol);

// Δ: the largest number of entries in a row or column (Matrix::max_line_nonzeros in O(nnz)).
[[nodiscard]] int max_line_entries(const Support& s);

// Matrix::max_entry and Matrix::max_line_sum of the D that `s` was made from (with tol = 0), in
// O(nnz): D's other entries are ±0 or negative (or NaN), and each of those passes ignores them,
// where D's entries are ≥ 0: max_entry starts at +0 and skips NaN, and adding ±0 to a row or
// column sum (which starts at +0 and then is never −0) leaves it as it is. The entries left are
// added in the dense passes' order (a row left to right; a column top to bottom), so the
// results are the same doubles. max_line_sum needs D ≥ 0 (check_problem), max_entry does not.
[[nodiscard]] double largest_entry(const Support& s);
[[nodiscard]] double max_line_sum(const Support& s);

}  // namespace flux::spectra
