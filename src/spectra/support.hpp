#pragma once
// The support of a demand matrix (its non-zero entries) in compressed sparse rows, the shape every
// Spectra kernel iterates over instead of the dense n x n matrix. Building it is O(n^2); all
// later work is O(non-zeros).
#include <algorithm>
#include <vector>

#include "core/matrix.hpp"

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

// Δ: the largest number of entries in a row or column (Matrix::max_line_nonzeros in O(nnz)).
[[nodiscard]] int max_line_entries(const Support& s);

}  // namespace flux::spectra
