#include "spectra/decompose.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "matching/assignment.hpp"
#include "matching/completion_assignment.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {
namespace {

constexpr double kCritical = 1e9;  // the reference's cost of a forbidden pair
// Row reduction steps per row of the automatic kernel's long variant (see probe_long).
constexpr int kLongReduction = 16;
// Time of a Dijkstra edge relaxation over an ARR edge visit (synthetic n = 1024: ≈ 8 ns against
// ≈ 1.7 ns, docs/results/spectra.md): what the long-reduction probe compares.
constexpr long kSearchCost = 4;

// Remaining demand and coverage on the support, plus uncovered counts per line.
class DecomposeState {
 public:
  DecomposeState(const Support& s, int reduction_steps)
      : s_(s),
        drem_(s.value),
        uncov_(static_cast<std::size_t>(s.size()), 1),
        row_count_(static_cast<std::size_t>(s.n), 0),
        col_count_(static_cast<std::size_t>(s.n), 0),
        completion_{.reduction_steps_per_row = reduction_steps},
        potential_(static_cast<std::size_t>(s.n), 0.0),
        workspace_(completion_),
        long_probe_(reduction_steps < kLongReduction) {
    for (int i = 0; i < s.n; ++i)
      for (int e = s.row_start[ix(i)]; e < s.row_start[ix(i) + 1]; ++e) {
        ++row_count_[ix(i)];
        ++col_count_[ix(s.col[ix(e)])];
      }
    uncovered_ = s.size();
  }

  [[nodiscard]] int max_count() const {
    int k = 0;
    for (int c : row_count_) k = std::max(k, c);
    for (int c : col_count_) k = std::max(k, c);
    return k;
  }
  [[nodiscard]] bool done() const { return uncovered_ == 0; }
  [[nodiscard]] const std::vector<double>& remaining() const { return drem_; }

  matrix::Permutation solve_step(int k, AssignmentKernel kernel) {
    return kernel == AssignmentKernel::dense ? dense_step(k) : sparse_step(k, kernel);
  }

  // Peels α = the smallest positive remaining demand on σ; marks σ's non-zeros covered.
  double peel(const matrix::Permutation& sigma) {
    double alpha = std::numeric_limits<double>::infinity();
    std::vector<int>& on = on_;  // reused across steps
    on.resize(ix(s_.n));
    for (int i = 0; i < s_.n; ++i) {
      on[ix(i)] = s_.find(i, sigma[ix(i)]);
      if (on[ix(i)] >= 0 && drem_[ix(on[ix(i)])] > 0.0)
        alpha = std::min(alpha, drem_[ix(on[ix(i)])]);
    }
    if (alpha == std::numeric_limits<double>::infinity())
      throw std::logic_error("DECOMPOSE step served no remaining demand");
    for (int i = 0; i < s_.n; ++i) {
      const int e = on[ix(i)];
      if (e < 0) continue;
      drem_[ix(e)] -= alpha;
      if (uncov_[ix(e)]) {
        uncov_[ix(e)] = 0;
        --uncovered_;
        --row_count_[ix(i)];
        --col_count_[ix(s_.col[ix(e)])];
      }
    }
    return alpha;
  }

 private:
  static std::size_t ix(int i) { return static_cast<std::size_t>(i); }
  bool critical(int i, int j, int k) const {
    return row_count_[ix(i)] >= k || col_count_[ix(j)] >= k;
  }
  // Whether entry e = (i, j) is forbidden: already covered, on a critical line (row_critical is
  // row i's half of the test, taken once per row by the sparse step).
  bool forbidden(int e, bool row_critical, int j, int k) const {
    return !uncov_[ix(e)] && (row_critical || col_count_[ix(j)] >= k);
  }
  // Cost of an allowed entry: its remaining demand, negated (0 once drained).
  double demand_cost(int e) const { return drem_[ix(e)] > 0.0 ? -drem_[ix(e)] : 0.0; }
  // Cost of a support entry, or NaN if forbidden.
  double entry_cost(int i, int e, int k) const {
    return forbidden(e, row_count_[ix(i)] >= k, s_.col[ix(e)], k)
               ? std::numeric_limits<double>::quiet_NaN()
               : demand_cost(e);
  }

  matrix::Permutation sparse_step(int k, AssignmentKernel kernel) {
    matching::SparseAssignmentProblem& p =
        step_;  // buffers reused across steps: no allocation per step
    p.n = s_.n;
    p.row_open.resize(ix(s_.n));
    p.col_open.resize(ix(s_.n));
    for (int i = 0; i < s_.n; ++i) {
      p.row_open[ix(i)] = row_count_[ix(i)] < k;
      p.col_open[ix(i)] = col_count_[ix(i)] < k;
    }
    p.row_start.resize(ix(s_.n) + 1);
    // Sized once for every entry and never shrunk: the solver reads row_start's ranges only, and
    // regrowing after a shrink would zero-fill the tail at every step.
    p.col.resize(ix(s_.size()));
    p.cost.resize(ix(s_.size()));
    int kept = 0;
    for (int i = 0; i < s_.n; ++i) {
      p.row_start[ix(i)] = kept;
      const bool row_critical = row_count_[ix(i)] >= k;
      for (int e = s_.row_start[ix(i)]; e < s_.row_start[ix(i) + 1]; ++e) {
        const int j = s_.col[ix(e)];
        if (forbidden(e, row_critical, j, k)) continue;
        p.col[ix(kept)] = j;
        p.cost[ix(kept++)] = demand_cost(e);
      }
    }
    p.row_start[ix(s_.n)] = kept;
    if (kernel == AssignmentKernel::sparse_fresh) {
      std::fill(potential_.begin(), potential_.end(), 0.0);
      return checked(completion_assignment(p, potential_, completion_));
    }
    if (solved_ && (kernel == AssignmentKernel::sparse_warm || warm_))
      return checked(active().resolve(p, potential_));
    if (kernel == AssignmentKernel::automatic && solved_) {
      probe_warm(p);
      probe_long(p);
    }
    solved_ = true;
    std::fill(potential_.begin(), potential_.end(), 0.0);  // cold start
    const matching::SparseAssignmentResult& r = active().solve(p, potential_);
    cold_searches_ = active().last_stats().searches;
    cold_work_ = active().last_stats().work;
    choose_start(active().last_stats());
    return checked(r);
  }

  // The solver of the current budget: the default, or the long row reduction once it paid.
  matching::CompletionWorkspace& active() { return long_ ? *long_workspace_ : workspace_; }

  // Automatic kernel, after a cold step that probed: later steps start warm if that took < 3/4
  // of this step's cold work; else they switch to the long row reduction if its cost did. The
  // switch solves the next step cold (the long solver does not hold this step's matching).
  void choose_start(const matching::SolveStats& cold) {
    if (warm_probe_work_ >= 0) warm_ = pays(warm_probe_work_, cold.work);
    if (!warm_ && pays(long_probe_cost_, cost(cold))) {
      long_ = true;
      solved_ = false;
      probed_ = false;  // the long budget gets its own warm probe
    }
    warm_probe_work_ = long_probe_cost_ = -1;
  }

  // Whether a probe (−1: none) took less than 3/4 of the cold step it is compared with: the one
  // margin of both probes.
  static bool pays(long probe, long cold) { return probe >= 0 && 4 * probe < 3 * cold; }

  // Time-like cost of a solve: a Dijkstra edge (heap update) costs about kSearchCost ARR edges.
  static long cost(const matching::SolveStats& s) {
    return s.work + (kSearchCost - 1) * s.search_work;
  }

  // Automatic kernel: when the last cold step needed many Dijkstra searches (price wars that ARR
  // does not settle, e.g. dense or irregular supports), this step is also solved warm, on a copy
  // of the potentials, for its measured work only; the cold solve that follows decides whether
  // the later steps start warm. At most one probe per 8 steps. Deterministic: work is counted.
  // With the long row reduction few searches are left: there it probes once, on the step after
  // the switch's cold one (random sparse supports then go warm; near-regular ones stay cold).
  void probe_warm(const matching::SparseAssignmentProblem& p) {
    if (++steps_since_probe_ < 8 && probed_) return;
    if (long_ ? probed_ : 7 * cold_searches_ <= s_.n) return;
    probed_ = true;
    steps_since_probe_ = 0;
    probe_potential_ = potential_;
    (void)active().resolve(p, probe_potential_);
    warm_probe_work_ = active().last_stats().work;
  }

  // Automatic kernel, once, on the step after the first cold one that needed Dijkstra searches:
  // the step is also solved cold with the long row reduction (kLongReduction steps per row), for
  // its measured cost only. On large near-regular supports (synthetic n = 1024) ARR then settles
  // almost every row, and the searches that dominate the default budget vanish.
  void probe_long(const matching::SparseAssignmentProblem& p) {
    if (!long_probe_ || long_ || cold_searches_ == 0) return;
    // A warm start that already beats the last cold step (MoE) is cheaper than either budget.
    if (pays(warm_probe_work_, cold_work_)) return;
    long_probe_ = false;
    long_workspace_ = std::make_unique<matching::CompletionWorkspace>(
        matching::CompletionOptions{.reduction_steps_per_row = kLongReduction});
    probe_potential_.assign(potential_.size(), 0.0);
    (void)long_workspace_->solve(p, probe_potential_);
    long_probe_cost_ = cost(long_workspace_->last_stats());
  }

  // König: a matching saturating every critical line always exists, so this is a logic error.
  static matrix::Permutation checked(const matching::SparseAssignmentResult& r) {
    if (!r.feasible) throw std::logic_error("DECOMPOSE: no assignment avoids the critical costs");
    return r.row_to_col;
  }

  matrix::Permutation dense_step(int k) {
    Matrix cost(s_.n);
    for (int i = 0; i < s_.n; ++i)
      for (int j = 0; j < s_.n; ++j) cost(i, j) = critical(i, j, k) ? kCritical : 0.0;
    for (int i = 0; i < s_.n; ++i)
      for (int e = s_.row_start[ix(i)]; e < s_.row_start[ix(i) + 1]; ++e) {
        const double c = entry_cost(i, e, k);
        cost(i, s_.col[ix(e)]) = c != c ? kCritical : c;
      }
    matching::Assignment a = matching::min_cost_assignment(cost);
    for (int i = 0; i < s_.n; ++i)
      if (cost(i, a.row_to_col[ix(i)]) >= kCritical)
        throw std::logic_error("DECOMPOSE: the assignment chose a critical-cost (1e9) entry");
    return std::move(a.row_to_col);
  }

  const Support& s_;
  std::vector<double> drem_;
  std::vector<char> uncov_;
  std::vector<int> row_count_, col_count_;
  matching::CompletionOptions completion_;
  std::vector<double> potential_;            // column duals of the current step
  matching::SparseAssignmentProblem step_;   // the current step's problem
  matching::CompletionWorkspace workspace_;  // the solver's buffers, kept across steps
  std::vector<int> on_;                      // peel: entry of each row on the permutation, or -1
  int uncovered_ = 0;
  bool solved_ = false;  // a step was solved: the workspace holds its matching and duals
  bool probed_ = false;  // automatic: a warm start was tried
  int steps_since_probe_ = 0;
  bool warm_ = false;                       // automatic: later steps start warm
  long cold_searches_ = 0, cold_work_ = 0;  // of the last cold step
  long warm_probe_work_ = -1;               // work of the step probed warm, or -1
  std::vector<double> probe_potential_;
  bool long_probe_;            // automatic: the long row reduction is still to be tried
  bool long_ = false;          // automatic: later steps use the long row reduction
  long long_probe_cost_ = -1;  // cost of the probed step with the long row reduction, or -1
  std::unique_ptr<matching::CompletionWorkspace> long_workspace_;
};

// Stretch pass of DECOMPOSE: raise each permutation, in creation order, by the largest remaining
// demand on it, so that afterwards no non-zero has remaining demand > 0.
void stretch(const Support& s, const std::vector<matrix::Permutation>& perms,
             std::vector<double> drem, std::vector<double>& w) {
  for (std::size_t l = 0; l < perms.size(); ++l) {
    std::vector<int> on;
    double m = 0.0;
    for (int i = 0; i < s.n; ++i) {
      const int e = s.find(i, perms[l][static_cast<std::size_t>(i)]);
      if (e < 0) continue;
      on.push_back(e);
      m = std::max(m, drem[static_cast<std::size_t>(e)]);
    }
    if (m <= 0.0) continue;
    w[l] += m;
    for (int e : on) drem[static_cast<std::size_t>(e)] -= m;
  }
}

// The greedy steps of DECOMPOSE; returns the permutations with their peeled α and leaves `state` at
// the end (remaining demand after the peels).
matrix::Decomposition greedy_permutations(DecomposeState& state, AssignmentKernel kernel) {
  matrix::Decomposition dec;
  for (int k = state.max_count(); !state.done(); --k) {
    matrix::Permutation sigma = state.solve_step(k, kernel);
    dec.weights.push_back(state.peel(sigma));
    dec.perms.push_back(std::move(sigma));
  }
  return dec;
}

matrix::Decomposition stretched(const Support& s, const DecomposeState& state,
                                matrix::Decomposition dec) {
  stretch(s, dec.perms, state.remaining(), dec.weights);
  sort_by_weight(dec);
  return dec;
}

// LP weights, or nothing if the LP failed.
std::optional<matrix::Decomposition> lp_weighted(const Support& s, matrix::Decomposition dec) {
  std::vector<double> w = lp_min_total_weights(s, dec.perms);
  if (w.empty() && !dec.perms.empty()) return std::nullopt;
  dec.weights = std::move(w);
  sort_by_weight(dec);
  return dec;
}

}  // namespace

matrix::Decomposition spectra_decompose(const Matrix& d, const DecomposeOptions& opt) {
  return spectra_decompose(make_support(d), opt);
}

matrix::Decomposition spectra_decompose(const Support& s, const DecomposeOptions& opt) {
  DecomposeState state(s, opt.reduction_steps);
  matrix::Decomposition dec = greedy_permutations(state, opt.kernel);
  if (opt.weights == WeightMethod::lp)
    if (auto lp = lp_weighted(s, dec)) return std::move(*lp);
  return stretched(s, state, std::move(dec));
}

}  // namespace flux::spectra
