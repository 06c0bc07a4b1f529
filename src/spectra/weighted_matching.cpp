#include "spectra/weighted_matching.hpp"

namespace flux::spectra {

WeightedMatcher::WeightedMatcher(const Support& s) {
  problem_.n = s.n;
  problem_.row_start = s.row_start;
  problem_.col = s.col;
  problem_.cost.assign(s.col.size(), 0.0);
  problem_.row_open.assign(static_cast<std::size_t>(s.n), 1);
  problem_.col_open.assign(static_cast<std::size_t>(s.n), 1);
}

std::pair<matrix::Permutation, double> WeightedMatcher::best(const std::vector<double>& weight) {
  for (std::size_t e = 0; e < weight.size(); ++e) problem_.cost[e] = -weight[e];
  potential_.assign(static_cast<std::size_t>(problem_.n), 0.0);
  const matching::SparseAssignmentResult& r = workspace_.solve(problem_, potential_);
  if (!r.feasible) return {{}, 0.0};
  return {r.row_to_col, -r.cost};
}

}  // namespace flux::spectra
