#pragma once
// Minimum-cost perfect assignment on a dense n x n cost matrix.
//
// Shortest augmenting paths with dual potentials (the Jonker–Volgenant / Hungarian family),
// O(n^3) time, O(n) extra memory. Costs must be finite. Returns row_to_col: the column assigned
// to each row. Ties are broken deterministically (lowest column index on equal reduced cost).
#include <vector>

#include "core/matrix.hpp"

namespace flux::matching {

struct Assignment {
  std::vector<int> row_to_col;
  double cost = 0.0;
};

[[nodiscard]] Assignment min_cost_assignment(const Matrix& cost);

}  // namespace flux::matching
