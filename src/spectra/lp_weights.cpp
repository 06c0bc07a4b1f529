#include "spectra/lp_weights.hpp"

#include <ClpSimplex.hpp>
#include <algorithm>
#include <limits>
#include <map>

namespace flux {
namespace {

// cover[e] = ascending ids of the permutations that pass through non-zero e.
std::vector<std::vector<int>> cover_sets(const Support& s, const std::vector<Permutation>& perms) {
  std::vector<std::vector<int>> cover(static_cast<std::size_t>(s.size()));
  for (std::size_t l = 0; l < perms.size(); ++l)
    for (int i = 0; i < s.n; ++i) {
      const int e = s.find(i, perms[l][static_cast<std::size_t>(i)]);
      if (e >= 0) cover[static_cast<std::size_t>(e)].push_back(static_cast<int>(l));
    }
  return cover;
}

}  // namespace

int repair_coverage(const Support& s, const std::vector<Permutation>& perms,
                    std::vector<double>& w) {
  const auto cover = cover_sets(s, perms);
  int repairs = 0;
  for (int e = 0; e < s.size(); ++e) {
    const auto& ls = cover[static_cast<std::size_t>(e)];
    if (ls.empty()) continue;  // precondition violated; the caller's verifier reports it
    double served = 0.0;
    for (int l : ls) served += w[static_cast<std::size_t>(l)];
    const double shortfall = s.value[static_cast<std::size_t>(e)] - served;
    if (shortfall > 0.0) {
      w[static_cast<std::size_t>(ls.front())] += shortfall;
      ++repairs;
    }
  }
  return repairs;
}

std::vector<double> lp_min_total_weights(const Support& s, const std::vector<Permutation>& perms) {
  const int k = static_cast<int>(perms.size());
  if (k == 0) return {};
  // One constraint per distinct cover set, with the largest demand it must serve.
  std::map<std::vector<int>, double> rows;
  const auto cover = cover_sets(s, perms);
  for (int e = 0; e < s.size(); ++e) {
    double& need = rows[cover[static_cast<std::size_t>(e)]];
    need = std::max(need, s.value[static_cast<std::size_t>(e)]);
  }
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
      col_lb(static_cast<std::size_t>(k), 0.0), col_ub(static_cast<std::size_t>(k), COIN_DBL_MAX),
      row_ub(row_lb.size(), COIN_DBL_MAX);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(k, static_cast<int>(row_lb.size()), start.data(), index.data(), ones.data(),
                    col_lb.data(), col_ub.data(), obj.data(), row_lb.data(), row_ub.data());
  model.dual();
  if (!model.isProvenOptimal()) return {};
  const double* x = model.primalColumnSolution();
  std::vector<double> w(x, x + k);
  for (double& v : w) v = std::max(v, 0.0);
  (void)repair_coverage(s, perms, w);
  return w;
}

}  // namespace flux
