#include "spectra/colgen_decompose.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "milp/column_lp.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/weighted_matching.hpp"

namespace flux::spectra {
namespace {

// The non-zeros a permutation serves (its LP column).
std::vector<int> entries_of(const Support& s, const matrix::Permutation& p) {
  std::vector<int> rows;
  for (int i = 0; i < s.n; ++i)
    if (const int e = s.find(i, p[static_cast<std::size_t>(i)]); e >= 0) rows.push_back(e);
  return rows;
}

// The LP's current solution as a decomposition: its positive columns, coverage repaired against
// the simplex tolerance, sorted by weight.
matrix::Decomposition current(const Support& s, const std::vector<matrix::Permutation>& perms,
                              const std::vector<double>& x) {
  matrix::Decomposition dec;
  for (std::size_t l = 0; l < perms.size(); ++l)
    if (x[l] > 0.0) {
      dec.perms.push_back(perms[l]);
      dec.weights.push_back(x[l]);
    }
  (void)repair_coverage(s, dec.perms, dec.weights);
  sort_by_weight(dec);
  return dec;
}

// Most weight a new permutation can usefully carry: the smallest demand it serves at a positive
// dual (beyond it, that entry is over-covered and its dual drops to zero).
double usable_weight(const Support& s, const std::vector<int>& rows, const std::vector<double>& y) {
  double w = std::numeric_limits<double>::infinity();
  for (const int e : rows)
    if (y[static_cast<std::size_t>(e)] > 0.0) w = std::min(w, s.value[static_cast<std::size_t>(e)]);
  return std::isfinite(w) ? w : 0.0;
}

// Column generation from `perms` (which must cover D); appends the generated permutations.
// Each round prices up to `per_round` permutations: the best one, then the best one again with
// the duals of the entries already taken this round set to zero (a different permutation that
// still has a negative reduced cost under the true duals), so one LP solve buys several columns.
// False if an LP failed.
bool generate(const Support& s, const ColgenOptions& opt, std::size_t max_columns,
              milp::ColumnLp& lp, std::vector<matrix::Permutation>& perms) {
  WeightedMatcher pricer(s);  // the permutation of least reduced cost: max Σ y
  std::set<matrix::Permutation> seen(perms.begin(), perms.end());
  int idle = 0;
  while (true) {
    if (!lp.solve()) return false;
    if (perms.size() >= max_columns || idle >= opt.patience) return true;
    const std::vector<double>& y = lp.duals();
    std::vector<double> taken = y;
    bool added = false;
    for (int k = 0; k < opt.per_round && perms.size() < max_columns; ++k) {
      auto [p, unused] = pricer.best(taken);
      if (p.empty()) break;
      const std::vector<int> rows = entries_of(s, p);
      double dual_weight = 0.0;
      for (const int e : rows) dual_weight += y[static_cast<std::size_t>(e)];
      const double reduced = 1.0 - dual_weight;
      if (reduced > -1e-9 || !seen.insert(p).second) break;
      if (k == 0) idle = -reduced * usable_weight(s, rows, y) < opt.delta ? idle + 1 : 0;
      for (const int e : rows) taken[static_cast<std::size_t>(e)] = 0.0;
      lp.add_column(rows, 1.0);
      perms.push_back(std::move(p));
      added = true;
    }
    if (!added) return true;  // LP optimal
  }
}

// The shortest plan seen so far.
struct Best {
  const ColgenOptions& opt;
  matrix::Decomposition dec;
  double length = std::numeric_limits<double>::infinity();
  void offer(matrix::Decomposition d) {
    if (const double m = lpt_equalized_length(d.weights, opt.switches, opt.delta); m < length) {
      dec = std::move(d);
      length = m;
    }
  }
};

// Fixed-charge phase: a permutation costs its weight plus δ, which the LP prices per unit of
// weight at the weight the permutation had in the last solve (dynamic slope scaling), so lightly
// used permutations grow expensive and leave. Every round's set is re-weighted for the least
// total (lp_weights.hpp) and offered. Costs are back at 1 on return.
void consolidate(const Support& s, const ColgenOptions& opt, milp::ColumnLp& lp,
                 const std::vector<matrix::Permutation>& perms, Best& best) {
  std::vector<double> x = lp.values();
  // Weights below this are solver noise; pricing δ at them would blow the costs up to 1e15.
  const double floor = 1e-9 * *std::max_element(s.value.begin(), s.value.end());
  for (int round = 0; round < opt.scaling_rounds; ++round) {
    for (std::size_t l = 0; l < x.size(); ++l)
      if (x[l] > 0.0) lp.set_cost(static_cast<int>(l), 1.0 + opt.delta / std::max(x[l], floor));
    if (!lp.solve()) break;
    x = lp.values();
    matrix::Decomposition dec;
    for (std::size_t l = 0; l < perms.size(); ++l)
      if (x[l] > 0.0) dec.perms.push_back(perms[l]);
    if (!reweigh_for_least_total(s, dec, true)) continue;
    best.offer(std::move(dec));
  }
  for (std::size_t l = 0; l < perms.size(); ++l) lp.set_cost(static_cast<int>(l), 1.0);
}

// Drops the lightest permutations in batches (banned for good: the LP may bring back others
// that were at zero) and offers every size. Each round bans at least one enabled permutation,
// so there are at most as many rounds as permutations.
void drop_lightest(const Support& s, const ColgenOptions& opt, milp::ColumnLp& lp,
                   const std::vector<matrix::Permutation>& perms, Best& best) {
  const std::size_t delta_lines = static_cast<std::size_t>(max_line_entries(s));
  if (!lp.solve()) return;
  std::vector<double> x = lp.values();
  std::vector<char> banned(perms.size(), 0);
  const auto used = [&] {  // enabled permutations with a weight, lightest first
    std::vector<std::size_t> order;
    for (std::size_t l = 0; l < x.size(); ++l)
      if (!banned[l] && x[l] > 0.0) order.push_back(l);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    return order;
  };
  std::vector<std::size_t> order = used();
  const std::size_t batch =
      std::max<std::size_t>(1, (order.size() - std::min(order.size(), delta_lines)) /
                                   static_cast<std::size_t>(std::max(1, opt.rounds)));
  while (true) {
    for (std::size_t l = 0; l < x.size(); ++l)
      if (banned[l]) x[l] = 0.0;  // a banned column's value is 0 up to the solver's noise
    best.offer(current(s, perms, x));
    if (order.size() <= delta_lines) break;
    order.resize(std::min(batch, order.size() - 1));
    for (const std::size_t l : order) {
      lp.disable(static_cast<int>(l));
      banned[l] = 1;
    }
    if (!lp.solve()) break;  // an entry lost its last permutation
    x = lp.values();
    order = used();
  }
}

}  // namespace

matrix::Decomposition colgen_decompose(const Support& s, const matrix::Decomposition& greedy,
                                       const ColgenOptions& opt) {
  if (greedy.perms.empty()) return {};
  const std::size_t delta_lines = static_cast<std::size_t>(max_line_entries(s));
  const std::size_t max_columns =
      opt.max_columns > 0 ? static_cast<std::size_t>(opt.max_columns) : 4 * delta_lines + 8;
  milp::ColumnLp lp(s.value);
  std::vector<matrix::Permutation> perms = greedy.perms;
  for (const matrix::Permutation& p : perms) lp.add_column(entries_of(s, p), 1.0);
  if (!generate(s, opt, max_columns, lp, perms) || perms.size() == greedy.perms.size()) return {};
  Best best{opt, {}};
  consolidate(s, opt, lp, perms, best);
  drop_lightest(s, opt, lp, perms, best);
  return std::move(best.dec);
}

}  // namespace flux::spectra
