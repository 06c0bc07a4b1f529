#include "matching/hopcroft_karp.hpp"

#include <limits>

namespace flux::matching {
namespace {

class HopcroftKarp {
 public:
  HopcroftKarp(int n_left, const std::vector<std::vector<int>>& adj, BipartiteMatching& m)
      : n_left_(n_left),
        adj_(adj),
        m_(m),
        dist_(static_cast<std::size_t>(n_left)),
        it_(static_cast<std::size_t>(n_left)) {}

  void run() {
    while (layer()) {
      for (int l = 0; l < n_left_; ++l) it_[static_cast<std::size_t>(l)] = 0;
      for (int l = 0; l < n_left_; ++l)
        if (m_.left_to_right[static_cast<std::size_t>(l)] < 0 && augment(l)) ++m_.size;
    }
  }

 private:
  static constexpr int kInf = std::numeric_limits<int>::max();

  // BFS from the free left vertices; true if some free right vertex is reachable.
  bool layer() {
    std::vector<int> queue;
    queue.reserve(static_cast<std::size_t>(n_left_));
    for (int l = 0; l < n_left_; ++l) {
      const bool free = m_.left_to_right[static_cast<std::size_t>(l)] < 0;
      dist_[static_cast<std::size_t>(l)] = free ? 0 : kInf;
      if (free) queue.push_back(l);
    }
    bool found = false;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const int l = queue[q];
      for (int r : adj_[static_cast<std::size_t>(l)]) {
        const int next = m_.right_to_left[static_cast<std::size_t>(r)];
        if (next < 0) {
          found = true;
        } else if (dist_[static_cast<std::size_t>(next)] == kInf) {
          dist_[static_cast<std::size_t>(next)] = dist_[static_cast<std::size_t>(l)] + 1;
          queue.push_back(next);
        }
      }
    }
    return found;
  }

  // Iterative DFS along the layered graph; avoids recursion depth limits on large n.
  bool augment(int root) {
    std::vector<int> stack{root};
    while (!stack.empty()) {
      const int l = stack.back();
      const auto sl = static_cast<std::size_t>(l);
      const auto& nb = adj_[sl];
      bool advanced = false;
      while (it_[sl] < nb.size()) {
        const int r = nb[it_[sl]];
        const int next = m_.right_to_left[static_cast<std::size_t>(r)];
        if (next < 0) {
          // Flip the path recorded on the stack.
          for (std::size_t k = stack.size(); k-- > 0;) {
            const int lk = stack[k];
            const int rk = adj_[static_cast<std::size_t>(lk)][it_[static_cast<std::size_t>(lk)]];
            m_.left_to_right[static_cast<std::size_t>(lk)] = rk;
            m_.right_to_left[static_cast<std::size_t>(rk)] = lk;
          }
          return true;
        }
        if (dist_[static_cast<std::size_t>(next)] == dist_[sl] + 1) {
          stack.push_back(next);
          advanced = true;
          break;
        }
        ++it_[sl];
      }
      if (!advanced) {
        dist_[sl] = kInf;  // dead end for this phase
        stack.pop_back();
        if (!stack.empty()) ++it_[static_cast<std::size_t>(stack.back())];
      }
    }
    return false;
  }

  int n_left_;
  const std::vector<std::vector<int>>& adj_;
  BipartiteMatching& m_;
  std::vector<int> dist_;
  std::vector<std::size_t> it_;
};

}  // namespace

BipartiteMatching hopcroft_karp(int n_left, int n_right, const std::vector<std::vector<int>>& adj,
                                const BipartiteMatching* initial) {
  BipartiteMatching m;
  if (initial) {
    m = *initial;
  } else {
    m.left_to_right.assign(static_cast<std::size_t>(n_left), -1);
    m.right_to_left.assign(static_cast<std::size_t>(n_right), -1);
  }
  HopcroftKarp(n_left, adj, m).run();
  return m;
}

}  // namespace flux::matching
