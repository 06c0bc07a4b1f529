#include "matrix_algorithms/less_split.hpp"

#include <algorithm>
#include <utility>

namespace flux {
namespace {

// Relative slack under which an entry counts as tight (and is snapped to its bound).
constexpr double kTight = 1e-12;

// Bipartite graph on rows 0..n-1 and columns n..2n-1, one vertex list per side, edges = the
// support of D; an edge is usable while its entry is loose.
class CycleCutter {
 public:
  CycleCutter(const Matrix& d, Matrix& d1, Rng& rng) : d_(d), d1_(d1), rng_(rng), n_(d.n()) {
    adj_.resize(static_cast<std::size_t>(2 * n_));
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j)
        if (d(i, j) > 0.0) {
          adj_[static_cast<std::size_t>(i)].push_back(n_ + j);
          adj_[static_cast<std::size_t>(n_ + j)].push_back(i);
        }
    for (auto& list : adj_) std::sort(list.begin(), list.end());
  }

  void run() {
    std::vector<int> cycle;
    while (find_cycle(cycle)) push_around(cycle);
  }

 private:
  std::pair<int, int> entry(int a, int b) const {
    return a < n_ ? std::pair{a, b - n_} : std::pair{b, a - n_};
  }

  bool loose(int a, int b) const {
    const auto [i, j] = entry(a, b);
    const double lo = kTight * d_(i, j);
    return d1_(i, j) > lo && d1_(i, j) < d_(i, j) - lo;
  }

  // Iterative DFS; a non-parent neighbour already on the current path closes a cycle, returned
  // as the vertex sequence from that neighbour down to the current vertex.
  bool find_cycle(std::vector<int>& cycle) {
    const auto v = static_cast<std::size_t>(2 * n_);
    std::vector<int> state(v, 0);  // 0 unseen, 1 on path, 2 done
    std::vector<std::size_t> next(v, 0);
    std::vector<int> path;
    for (int start : rng_.permutation(2 * n_)) {
      if (state[static_cast<std::size_t>(start)] != 0) continue;
      path.assign(1, start);
      state[static_cast<std::size_t>(start)] = 1;
      while (!path.empty()) {
        const int a = path.back();
        const int parent = path.size() > 1 ? path[path.size() - 2] : -1;
        auto& it = next[static_cast<std::size_t>(a)];
        const auto& nb = adj_[static_cast<std::size_t>(a)];
        while (it < nb.size() && (nb[it] == parent || !loose(a, nb[it]) ||
                                  state[static_cast<std::size_t>(nb[it])] == 2))
          ++it;
        if (it == nb.size()) {
          state[static_cast<std::size_t>(a)] = 2;
          path.pop_back();
          continue;
        }
        const int b = nb[it++];
        if (state[static_cast<std::size_t>(b)] == 1) {
          cycle.assign(std::find(path.begin(), path.end(), b), path.end());
          return true;
        }
        state[static_cast<std::size_t>(b)] = 1;
        path.push_back(b);
      }
    }
    return false;
  }

  // Alternating ±η along the cycle keeps every row and column sum of D1; η makes one entry tight.
  void push_around(const std::vector<int>& cycle) {
    const double first = rng_.below(2) == 0 ? 1.0 : -1.0;
    double eta = -1.0;
    std::size_t tight = 0;
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const auto [i, j] = entry(cycle[k], cycle[(k + 1) % cycle.size()]);
      const double room = sign(first, k) > 0 ? d_(i, j) - d1_(i, j) : d1_(i, j);
      if (eta < 0.0 || room < eta) eta = room, tight = k;
    }
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const auto [i, j] = entry(cycle[k], cycle[(k + 1) % cycle.size()]);
      double& x = d1_(i, j);
      x += sign(first, k) * eta;
      const double lo = kTight * d_(i, j);
      if (k == tight || x <= lo || x >= d_(i, j) - lo) x = (x * 2.0 < d_(i, j)) ? 0.0 : d_(i, j);
    }
  }

  static double sign(double first, std::size_t k) { return k % 2 == 0 ? first : -first; }

  const Matrix& d_;
  Matrix& d1_;
  Rng& rng_;
  int n_;
  std::vector<std::vector<int>> adj_;
};

}  // namespace

Matrix alternating_cycle_cut(const Matrix& d, double share, Rng& rng) {
  Matrix d1 = d.scaled(share);
  CycleCutter(d, d1, rng).run();
  return d1;
}

std::vector<Matrix> less_split(const Matrix& d, int parts, Rng& rng) {
  if (parts <= 1) return {d};
  const int first = parts / 2;
  const Matrix d1 = alternating_cycle_cut(d, static_cast<double>(first) / parts, rng);
  Matrix d2(d.n());
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) d2(i, j) = std::max(0.0, d(i, j) - d1(i, j));
  std::vector<Matrix> out = less_split(d1, first, rng);
  for (Matrix& m : less_split(d2, parts - first, rng)) out.push_back(std::move(m));
  return out;
}

}  // namespace flux
