#include "spectra/bottleneck_decompose.hpp"

#include <algorithm>
#include <functional>

#include "matching/hopcroft_karp.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {
namespace {

std::size_t ix(int i) {
  return static_cast<std::size_t>(i);
}

// Positive entries by remaining demand, largest first, and up to `count` thresholds: quantiles
// of the distinct values.
struct StepCandidates {
  std::vector<int> entries;
  std::vector<double> thresholds;
};

StepCandidates step_candidates(const std::vector<double>& rem, int count) {
  StepCandidates c;
  for (std::size_t e = 0; e < rem.size(); ++e)
    if (rem[e] > 0.0) c.entries.push_back(static_cast<int>(e));
  std::sort(c.entries.begin(), c.entries.end(),
            [&](int a, int b) { return rem[ix(a)] > rem[ix(b)]; });
  std::vector<double> v;
  for (int e : c.entries)
    if (v.empty() || rem[ix(e)] != v.back()) v.push_back(rem[ix(e)]);
  if (static_cast<int>(v.size()) <= count) {
    c.thresholds = std::move(v);
    return c;
  }
  for (int q = 0; q < count; ++q)
    c.thresholds.push_back(v[ix(static_cast<int>(
        static_cast<double>(q) * static_cast<double>(v.size() - 1) / (count - 1)))]);
  c.thresholds.erase(std::unique(c.thresholds.begin(), c.thresholds.end()), c.thresholds.end());
  return c;
}

// Completes a partial matching (row -> col or -1) into a full permutation with idle fillers.
matrix::Permutation complete(std::vector<int> row_to_col, const std::vector<int>& col_to_row) {
  std::vector<int> free_cols;
  for (std::size_t j = 0; j < col_to_row.size(); ++j)
    if (col_to_row[j] < 0) free_cols.push_back(static_cast<int>(j));
  std::size_t next = 0;
  for (int& j : row_to_col)
    if (j < 0) j = free_cols[next++];
  return row_to_col;
}

}  // namespace

matrix::Decomposition bottleneck_decompose(const Matrix& d, const BottleneckOptions& opt) {
  return bottleneck_decompose(make_support(d), opt);
}

matrix::Decomposition bottleneck_decompose(const Support& s, const BottleneckOptions& opt) {
  std::vector<double> rem = s.value;
  const double tol = 1e-12 * std::max(1.0, largest_entry(s));
  // Remaining non-zeros per line: a step zeroes at most one entry of each line, so
  // steps so far + the largest count is a lower bound on the final K.
  std::vector<int> row_left(ix(s.n), 0), col_left(ix(s.n), 0);
  for (int i = 0; i < s.n; ++i)
    for (int e = s.row_start[ix(i)]; e < s.row_start[ix(i) + 1]; ++e)
      ++row_left[ix(i)], ++col_left[ix(s.col[ix(e)])];
  std::vector<int> row_of(ix(s.size()));
  for (int i = 0; i < s.n; ++i)
    for (int e = s.row_start[ix(i)]; e < s.row_start[ix(i) + 1]; ++e) row_of[ix(e)] = i;
  matrix::Decomposition dec;
  while (true) {
    const StepCandidates cand = step_candidates(rem, opt.thresholds);
    if (cand.entries.empty()) break;
    const int lines_left = std::max(*std::max_element(row_left.begin(), row_left.end()),
                                    *std::max_element(col_left.begin(), col_left.end()));
    if (static_cast<int>(dec.perms.size()) + lines_left > opt.max_permutations) return {};
    std::vector<std::vector<int>> adj(ix(s.n));
    matching::BipartiteMatching m;
    matching::BipartiteMatching best;
    double best_t = 0.0, best_value = -1.0;
    std::size_t added = 0;
    for (double t : cand.thresholds) {  // descending thresholds: edges only get added
      for (; added < cand.entries.size() && rem[ix(cand.entries[added])] >= t; ++added) {
        const int e = cand.entries[added];
        adj[ix(row_of[ix(e)])].push_back(s.col[ix(e)]);
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
      if (r <= tol) {
        r = 0.0;
        --row_left[ix(i)];
        --col_left[ix(j)];
      }
    }
    dec.perms.push_back(complete(best.left_to_right, best.right_to_left));
    dec.weights.push_back(best_t);
  }
  sort_by_weight(dec);
  return dec;
}

}  // namespace flux::spectra
