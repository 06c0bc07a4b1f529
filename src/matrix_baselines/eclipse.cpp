#include "matrix_baselines/eclipse.hpp"

#include <algorithm>
#include <map>

#include "matching/completion_assignment.hpp"
#include "matrix/algorithm.hpp"
#include "matrix_baselines/schedule_helpers.hpp"

namespace flux::matrix_baselines {
namespace {

struct Candidate {
  double threshold = 0.0;
  double ratio = 0.0;  // matching value / (threshold + delta)
  std::vector<int> perm;
};

class EclipseStep {
 public:
  // `potential` carries the column duals from one assignment to the next (any values are valid
  // duals for completion_assignment; nearby thresholds have nearly the same optimum).
  EclipseStep(const Matrix& rem, double delta, std::vector<double>& potential)
      : rem_(rem), delta_(delta), potential_(potential) {
    const int n = rem.n();
    support_.n = n;
    support_.row_open.assign(static_cast<std::size_t>(n), 1);
    support_.col_open.assign(static_cast<std::size_t>(n), 1);
    support_.row_start.push_back(0);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        if (rem(i, j) > 0.0) support_.col.push_back(j);
      support_.row_start.push_back(static_cast<int>(support_.col.size()));
    }
  }

  // Max-weight perfect matching of min(rem, h): a sparse assignment on the support with cost-0
  // fillers everywhere else (matching/completion_assignment.hpp).
  const Candidate& evaluate(double h) {
    auto it = cache_.find(h);
    if (it != cache_.end()) return it->second;
    matching::SparseAssignmentProblem prob = support_;
    prob.cost.clear();
    for (int i = 0; i < rem_.n(); ++i)
      for (int e = prob.row_start[static_cast<std::size_t>(i)];
           e < prob.row_start[static_cast<std::size_t>(i) + 1]; ++e)
        prob.cost.push_back(-std::min(rem_(i, prob.col[static_cast<std::size_t>(e)]), h));
    const matching::SparseAssignmentResult a = completion_assignment(prob, potential_);
    const double denom = h + delta_;
    Candidate c{h, denom > 0.0 ? -a.cost / denom : 0.0, a.row_to_col};
    return cache_.emplace(h, std::move(c)).first->second;
  }

  // The binary search of the Spectra authors' Eclipse code over the sorted distinct values `h`.
  const Candidate& search(const std::vector<double>& h) {
    if (h.size() == 1) return evaluate(h.front());  // all entries equal: nothing to search
    std::size_t lo = 0, hi = h.size() - 1;
    while (lo + 1 < hi) {
      const std::size_t i = (lo + hi) / 2;
      if (evaluate(h[i]).ratio <= evaluate(h[i + 1]).ratio)
        lo = i;
      else
        hi = i;
    }
    const Candidate& a = evaluate(h[lo]);
    const Candidate& b = evaluate(h[hi]);
    return a.ratio > b.ratio ? a : b;  // ties go to the larger threshold
  }

 private:
  const Matrix& rem_;
  double delta_;
  matching::SparseAssignmentProblem support_;  // CSR of rem's non-zeros, all lines open
  std::vector<double>& potential_;
  std::map<double, Candidate> cache_;
};

std::vector<double> distinct_values(const Matrix& m) {
  std::vector<double> v(m.data().begin(), m.data().end());
  v.push_back(0.0);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Frobenius norm is what the reference tests; an absolute 1e-14 on normalised data.
bool exhausted(const Matrix& m, double scale) {
  double sq = 0.0;
  for (double v : m.data()) sq += v * v;
  return sq <= (1e-14 * scale) * (1e-14 * scale);
}

}  // namespace

matrix::Decomposition eclipse_decomposition(const Matrix& d, const EclipseOptions& opt) {
  Matrix rem = d;
  matrix::Decomposition dec;
  const double scale = std::max(d.max_line_sum(), 1e-300);
  const long long cap = d.nonzeros() + d.n();
  std::vector<double> potential(static_cast<std::size_t>(d.n()), 0.0);
  while (!exhausted(rem, scale)) {
    EclipseStep step(rem, opt.delta, potential);
    const bool capped = static_cast<long long>(dec.perms.size()) >= cap;
    const Candidate& c =
        capped ? step.evaluate(rem.max_entry()) : step.search(distinct_values(rem));
    // A zero threshold serves nothing; take the largest entry instead so the step makes progress.
    const Candidate& used = c.threshold > 0.0 ? c : step.evaluate(rem.max_entry());
    for (int i = 0; i < rem.n(); ++i) {
      double& v = rem(i, used.perm[static_cast<std::size_t>(i)]);
      v = v <= used.threshold ? 0.0 : v - used.threshold;
    }
    dec.perms.push_back(used.perm);
    dec.weights.push_back(used.threshold);
  }
  sort_by_weight(dec);
  return dec;
}

matrix::MatrixResult eclipse_schedule(const matrix::MatrixProblem& p) {
  check_problem(p);
  return lpt_schedule("eclipse", eclipse_decomposition(p.time, {.delta = p.delta}), p);
}

}  // namespace flux::matrix_baselines
