#include "matrix_baselines/less_split.hpp"

#include <algorithm>
#include <utility>

namespace flux::matrix_baselines {
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

  // Reference mode (restart = true): after every push, a fresh search from start vertices in a
  // new random order, exactly as the reference code; O(V + E) per cycle.
  // Resuming mode: one search over the whole graph that, after a push, cuts the path just before
  // the first edge the push made tight (the prefix is still a path of loose edges) and carries
  // on; vertices cut off become unvisited again and are queued as later start vertices. Edges only
  // ever disappear, so a finished vertex can never lie on a cycle again and stays finished.
  // O(E + sum of cycle lengths) in all.
  void run(bool restart) {
    const auto v = static_cast<std::size_t>(2 * n_);
    for (;;) {
      state_.assign(v, 0);
      next_.assign(v, 0);
      pos_.assign(v, 0);
      std::vector<int> order = rng_.permutation(2 * n_);
      bool pushed = false;
      for (std::size_t k = 0; k < order.size() && !pushed; ++k)
        if (state_[static_cast<std::size_t>(order[k])] == 0)
          pushed = search_from(order[k], order, restart);
      if (!pushed) return;
    }
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

  void enter(int a) {
    state_[static_cast<std::size_t>(a)] = 1;
    pos_[static_cast<std::size_t>(a)] = path_.size();
    path_.push_back(a);
  }

  // The next usable neighbour of the path's last vertex, or -1 when it is finished.
  int advance(int a) {
    const int parent = path_.size() > 1 ? path_[path_.size() - 2] : -1;
    auto& it = next_[static_cast<std::size_t>(a)];
    const auto& nb = adj_[static_cast<std::size_t>(a)];
    while (it < nb.size() &&
           (nb[it] == parent || state_[static_cast<std::size_t>(nb[it])] == 2 || !loose(a, nb[it])))
      ++it;
    return it < nb.size() ? nb[it++] : -1;
  }

  // True when it stopped after a push to let the caller restart (reference mode only).
  bool search_from(int start, std::vector<int>& order, bool restart) {
    path_.clear();
    enter(start);
    while (!path_.empty()) {
      const int a = path_.back();
      const int b = advance(a);
      if (b < 0) {
        state_[static_cast<std::size_t>(a)] = 2;
        path_.pop_back();
      } else if (state_[static_cast<std::size_t>(b)] == 1) {
        const std::size_t from = pos_[static_cast<std::size_t>(b)];
        if (restart) {
          (void)push_around({path_.begin() + static_cast<std::ptrdiff_t>(from), path_.end()});
          return true;
        }
        cut_after_push(from, order);
      } else {
        enter(b);
      }
    }
    return false;
  }

  // The cycle is path_[from..] closed by the edge back to path_[from].
  void cut_after_push(std::size_t from, std::vector<int>& order) {
    const std::vector<int> cycle(path_.begin() + static_cast<std::ptrdiff_t>(from), path_.end());
    const std::size_t tight = push_around(cycle);
    if (tight + 1 == cycle.size()) return;  // only the closing edge went: the path is intact
    for (std::size_t k = from + tight + 1; k < path_.size(); ++k) {
      const auto u = static_cast<std::size_t>(path_[k]);
      state_[u] = 0;
      next_[u] = 0;
      order.push_back(path_[k]);
    }
    path_.resize(from + tight + 1);
  }

  // Alternating ±η along the cycle keeps every row and column sum of D1; η makes one entry tight.
  // Returns the position of the first edge that became tight (edge k joins cycle[k] and
  // cycle[k + 1], the last one closes the cycle).
  std::size_t push_around(const std::vector<int>& cycle) {
    const double first = rng_.below(2) == 0 ? 1.0 : -1.0;
    double eta = -1.0;
    std::size_t tight = 0;
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const auto [i, j] = entry(cycle[k], cycle[(k + 1) % cycle.size()]);
      const double room = sign(first, k) > 0 ? d_(i, j) - d1_(i, j) : d1_(i, j);
      if (eta < 0.0 || room < eta) eta = room, tight = k;
    }
    std::size_t first_tight = tight;
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const auto [i, j] = entry(cycle[k], cycle[(k + 1) % cycle.size()]);
      double& x = d1_(i, j);
      x += sign(first, k) * eta;
      const double lo = kTight * d_(i, j);
      if (k == tight || x <= lo || x >= d_(i, j) - lo) {
        x = (x * 2.0 < d_(i, j)) ? 0.0 : d_(i, j);
        first_tight = std::min(first_tight, k);
      }
    }
    return first_tight;
  }

  static double sign(double first, std::size_t k) { return k % 2 == 0 ? first : -first; }

  const Matrix& d_;
  Matrix& d1_;
  Rng& rng_;
  int n_;
  std::vector<std::vector<int>> adj_;
  std::vector<int> state_;  // 0 unvisited, 1 on the path, 2 finished
  std::vector<std::size_t> next_, pos_;
  std::vector<int> path_;
};

}  // namespace

Matrix alternating_cycle_cut(const Matrix& d, double share, Rng& rng, CycleSearch search) {
  Matrix d1 = d.scaled(share);
  // The reference's restart costs up to nnz searches of O(n + nnz) each: keep it (the paper's
  // numbers were measured with it) while that stays below ~2e8 steps, resume beyond.
  const double nnz = static_cast<double>(d.nonzeros());
  const bool restart = search == CycleSearch::restart ||
                       (search == CycleSearch::automatic && nnz * (2.0 * d.n() + 2.0 * nnz) <= 2e8);
  CycleCutter(d, d1, rng).run(restart);
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

}  // namespace flux::matrix_baselines
