#include "spectra/bottleneck_decompose.hpp"

#include <algorithm>
#include <functional>

#include "matching/hopcroft_karp.hpp"
#include "spectra/support.hpp"

namespace flux {
namespace {

std::size_t ix(int i) {
  return static_cast<std::size_t>(i);
}

// Distinct positive remaining values, largest first, thinned to at most `count` quantiles.
std::vector<double> threshold_candidates(const std::vector<double>& rem, int count) {
  std::vector<double> v;
  for (double x : rem)
    if (x > 0.0) v.push_back(x);
  std::sort(v.begin(), v.end(), std::greater<>());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (static_cast<int>(v.size()) <= count) return v;
  std::vector<double> out;
  for (int q = 0; q < count; ++q)
    out.push_back(v[ix(static_cast<int>(static_cast<double>(q) * static_cast<double>(v.size() - 1) /
                                        (count - 1)))]);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Completes a partial matching (row -> col or -1) into a full permutation with idle fillers.
Permutation complete(std::vector<int> row_to_col, const std::vector<int>& col_to_row) {
  std::vector<int> free_cols;
  for (std::size_t j = 0; j < col_to_row.size(); ++j)
    if (col_to_row[j] < 0) free_cols.push_back(static_cast<int>(j));
  std::size_t next = 0;
  for (int& j : row_to_col)
    if (j < 0) j = free_cols[next++];
  return row_to_col;
}

}  // namespace

Decomposition bottleneck_decompose(const Matrix& d, const BottleneckOptions& opt) {
  const Support s = make_support(d);
  std::vector<double> rem = s.value;
  const double tol = 1e-12 * std::max(1.0, d.max_entry());
  Decomposition dec;
  while (true) {
    const std::vector<double> ts = threshold_candidates(rem, opt.thresholds);
    if (ts.empty()) break;
    if (static_cast<int>(dec.perms.size()) >= opt.max_permutations) return {};
    std::vector<std::vector<int>> adj(ix(s.n));
    BipartiteMatching m;
    BipartiteMatching best;
    double best_t = 0.0, best_value = -1.0;
    for (double t : ts) {  // descending thresholds: edges only get added
      for (int i = 0; i < s.n; ++i) {
        adj[ix(i)].clear();
        for (int e = s.row_start[ix(i)]; e < s.row_start[ix(i) + 1]; ++e)
          if (rem[ix(e)] >= t) adj[ix(i)].push_back(s.col[ix(e)]);
      }
      m = hopcroft_karp(s.n, s.n, adj, m.left_to_right.empty() ? nullptr : &m);
      const double value = t * m.size / (t + opt.delta);
      if (value > best_value) best_value = value, best_t = t, best = m;
    }
    for (int i = 0; i < s.n; ++i) {
      const int j = best.left_to_right[ix(i)];
      if (j < 0) continue;
      double& r = rem[ix(s.find(i, j))];
      r -= best_t;
      if (r <= tol) r = 0.0;
    }
    dec.perms.push_back(complete(best.left_to_right, best.right_to_left));
    dec.weights.push_back(best_t);
  }
  sort_by_weight(dec);
  return dec;
}

}  // namespace flux
