#pragma once
// The support of a demand matrix (its non-zero entries) in compressed sparse rows, the shape every
// Spectra kernel iterates over instead of the dense n x n matrix. Building it is O(n^2); all
// later work is O(non-zeros).
#include <vector>

#include "core/matrix.hpp"

namespace flux {

struct Support {
  int n = 0;
  std::vector<int> row_start;  // size n+1
  std::vector<int> col;        // column of each entry, ascending within a row
  std::vector<double> value;   // D[i][col]

  [[nodiscard]] int size() const { return static_cast<int>(col.size()); }
  // Entry index of (i, j), or -1 if D[i][j] is zero. O(log degree).
  [[nodiscard]] int find(int i, int j) const;
};

// Entries with D[i][j] > tol (reference/spectra.md §2.1 uses tol = 0).
[[nodiscard]] Support make_support(const Matrix& d, double tol = 0.0);

}  // namespace flux
