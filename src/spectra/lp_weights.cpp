#include "spectra/lp_weights.hpp"

#include <ClpSimplex.hpp>
#include <algorithm>
#include <limits>
#include <map>

namespace flux {
namespace {

// For every non-zero e, the ascending ids of the permutations through it, in CSR form.
struct Cover {
  std::vector<int> start;  // size nnz+1
  std::vector<int> perm;
  [[nodiscard]] std::pair<const int*, const int*> of(int e) const {
    return {perm.data() + start[static_cast<std::size_t>(e)],
            perm.data() + start[static_cast<std::size_t>(e) + 1]};
  }
};

Cover cover_sets(const Support& s, const std::vector<Permutation>& perms) {
  std::vector<std::pair<int, int>> hits;  // (entry, perm), perms in ascending order
  hits.reserve(perms.size() * static_cast<std::size_t>(s.n));
  for (std::size_t l = 0; l < perms.size(); ++l)
    for (int i = 0; i < s.n; ++i)
      if (const int e = s.find(i, perms[l][static_cast<std::size_t>(i)]); e >= 0)
        hits.emplace_back(e, static_cast<int>(l));
  Cover c;
  c.start.assign(static_cast<std::size_t>(s.size()) + 1, 0);
  for (const auto& h : hits) ++c.start[static_cast<std::size_t>(h.first) + 1];
  for (std::size_t e = 1; e < c.start.size(); ++e) c.start[e] += c.start[e - 1];
  c.perm.resize(hits.size());
  std::vector<int> next(c.start.begin(), c.start.end() - 1);
  for (const auto& [e, l] : hits)
    c.perm[static_cast<std::size_t>(next[static_cast<std::size_t>(e)]++)] = l;
  return c;
}

int repair(const Support& s, const Cover& cover, std::vector<double>& w) {
  int repairs = 0;
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (first == last) continue;  // precondition violated; the caller's verifier reports it
    double served = 0.0;
    for (const int* l = first; l != last; ++l) served += w[static_cast<std::size_t>(*l)];
    const double shortfall = s.value[static_cast<std::size_t>(e)] - served;
    if (shortfall > 0.0) {
      w[static_cast<std::size_t>(*first)] += shortfall;
      ++repairs;
    }
  }
  return repairs;
}

}  // namespace

int repair_coverage(const Support& s, const std::vector<Permutation>& perms,
                    std::vector<double>& w) {
  return repair(s, cover_sets(s, perms), w);
}

namespace {

using CoverRows = std::map<std::vector<int>, double>;  // cover set -> largest demand on it

// Solves min Σw s.t. the rows, w >= lb with Clp; empty on failure.
std::vector<double> solve_with_clp(int k,
                                   const std::vector<std::pair<std::vector<int>, double>>& rows,
                                   const std::vector<double>& lb) {
  // Column-major constraint matrix: column l lists the rows whose set contains l.
  std::vector<std::vector<int>> col_rows(static_cast<std::size_t>(k));
  std::vector<double> row_lb;
  for (const auto& [ls, need] : rows) {
    for (int l : ls)
      col_rows[static_cast<std::size_t>(l)].push_back(static_cast<int>(row_lb.size()));
    row_lb.push_back(need);
  }
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  for (const auto& r : col_rows) {
    index.insert(index.end(), r.begin(), r.end());
    start.push_back(static_cast<CoinBigIndex>(index.size()));
  }
  const std::vector<double> ones(index.size(), 1.0), obj(static_cast<std::size_t>(k), 1.0),
      col_ub(static_cast<std::size_t>(k), COIN_DBL_MAX), row_ub(row_lb.size(), COIN_DBL_MAX);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(k, static_cast<int>(row_lb.size()), start.data(), index.data(), ones.data(),
                    lb.data(), col_ub.data(), obj.data(), row_lb.data(), row_ub.data());
  model.dual();
  if (!model.isProvenOptimal()) return {};
  const double* x = model.primalColumnSolution();
  std::vector<double> w(x, x + k);
  for (std::size_t l = 0; l < w.size(); ++l) w[l] = std::max(w[l], lb[l]);
  return w;
}

}  // namespace

std::vector<double> lp_min_total_weights(const Support& s, const std::vector<Permutation>& perms) {
  const int k = static_cast<int>(perms.size());
  if (k == 0) return {};
  // Presolve: an entry on a single permutation is a lower bound on that weight. Entries on
  // several permutations give one row per distinct set (largest demand); a row already met at
  // the lower bounds stays met for any w >= lb (non-negative coefficients), so only the rest
  // reach Clp. On DECOMPOSE output this often leaves no row at all: then w = lb is optimal.
  const Cover cover = cover_sets(s, perms);
  std::vector<double> lb(static_cast<std::size_t>(k), 0.0);
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (last - first == 1)
      lb[static_cast<std::size_t>(*first)] =
          std::max(lb[static_cast<std::size_t>(*first)], s.value[static_cast<std::size_t>(e)]);
  }
  CoverRows rows;
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (last - first < 2) continue;
    double at_lb = 0.0;
    for (const int* l = first; l != last; ++l) at_lb += lb[static_cast<std::size_t>(*l)];
    const double v = s.value[static_cast<std::size_t>(e)];
    if (at_lb >= v) continue;
    double& need = rows[std::vector<int>(first, last)];
    need = std::max(need, v);
  }
  const std::vector<std::pair<std::vector<int>, double>> open_rows(rows.begin(), rows.end());
  std::vector<double> w = open_rows.empty() ? lb : solve_with_clp(k, open_rows, lb);
  if (w.empty()) return w;
  (void)repair(s, cover, w);
  return w;
}

}  // namespace flux
