#pragma once
// The permutation serving the most weight on a support: a max-weight perfect matching over its
// entries, completed by fillers of weight 0 between any row and column (an idle circuit). One
// sparse assignment with the project's kernel (matching/completion_assignment.hpp); the buffers
// are reused across calls. Shared by column generation's pricing (weights = LP duals) and the
// peeling decomposition (weights = residual demand, capped).
#include <utility>
#include <vector>

#include "matching/completion_assignment.hpp"
#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

class WeightedMatcher {
 public:
  explicit WeightedMatcher(const Support& s);
  // The permutation maximising Σ weight[e] over the entries it serves, and that sum (an empty
  // permutation if the solver failed). `weight` has one value per entry of the support.
  std::pair<matrix::Permutation, double> best(const std::vector<double>& weight);

 private:
  matching::SparseAssignmentProblem problem_;
  matching::CompletionWorkspace workspace_;
  std::vector<double> potential_;
};

}  // namespace flux::spectra
