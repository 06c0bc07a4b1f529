#include "matching/completion_assignment.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

namespace flux {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class CompletionSolver {
 public:
  CompletionSolver(const SparseAssignmentProblem& p, std::vector<double>& v)
      : p_(p),
        n_(p.n),
        v_(v),
        u_(sz(n_), 0.0),
        row_match_(sz(n_), -1),
        col_match_(sz(n_), -1),
        dist_(sz(n_), kInf),
        pred_(sz(n_), -1),
        stamp_(sz(n_), 0),
        done_(sz(n_), 0) {}

  SparseAssignmentResult run() {
    SparseAssignmentResult r;
    for (int j = 0; j < n_; ++j)
      if (p_.col_open[sz(j)]) open_.push_back({v_[sz(j)], -j});
    std::make_heap(open_.begin(), open_.end());
    if (!init_duals_and_greedy()) return r;
    augmenting_row_reduction();
    for (int i = 0; i < n_; ++i)
      if (row_match_[sz(i)] < 0 && !augment_from(i)) return r;
    r.feasible = true;
    r.row_to_col = row_match_;
    for (int i = 0; i < n_; ++i)
      for (int e = p_.row_start[sz(i)]; e < p_.row_start[sz(i) + 1]; ++e)
        if (p_.col[sz(e)] == row_match_[sz(i)]) r.cost += p_.cost[sz(e)];
    return r;
  }

 private:
  static std::size_t sz(int i) { return static_cast<std::size_t>(i); }
  // Drops heap entries of columns finalised in this search or whose v changed since the push.
  void clean_open_top() {
    while (!open_.empty()) {
      const auto [v, neg_j] = open_.front();
      if (done_[sz(-neg_j)] != epoch_ && v == v_[sz(-neg_j)]) return;
      std::pop_heap(open_.begin(), open_.end());
      open_.pop_back();
    }
  }
  double max_open_v() {
    clean_open_top();
    return open_.empty() ? -kInf : open_.front().first;
  }

  // u_i = min over allowed j of (c_ij - v_j): feasible duals for any v. Then match every row along
  // a tight edge to a still-free column, explicit edges first, then an open column of maximal v.
  bool init_duals_and_greedy() {
    const double vmax = max_open_v();
    std::vector<int> top;  // open columns with v == vmax: the tight fillers
    for (int j = 0; j < n_; ++j)
      if (p_.col_open[sz(j)] && v_[sz(j)] == vmax) top.push_back(j);
    std::size_t next_top = 0;
    for (int i = 0; i < n_; ++i) {
      double best = p_.row_open[sz(i)] ? -vmax : kInf;
      for (int e = p_.row_start[sz(i)]; e < p_.row_start[sz(i) + 1]; ++e)
        best = std::min(best, p_.cost[sz(e)] - v_[sz(p_.col[sz(e)])]);
      if (best == kInf) return false;  // no allowed pair at all
      u_[sz(i)] = best;
      for (int e = p_.row_start[sz(i)]; e < p_.row_start[sz(i) + 1]; ++e) {
        const int j = p_.col[sz(e)];
        if (col_match_[sz(j)] < 0 && p_.cost[sz(e)] - v_[sz(j)] == best) {
          match(i, j);
          break;
        }
      }
      if (row_match_[sz(i)] >= 0 || !p_.row_open[sz(i)] || -vmax != best) continue;
      while (next_top < top.size() && col_match_[sz(top[next_top])] >= 0) ++next_top;
      if (next_top < top.size()) match(i, top[next_top]);
    }
    return true;
  }

  // Jonker–Volgenant augmenting row reduction on the closed rows (explicit edges only): a free row
  // takes its best column and lowers that column's v so its second best becomes as good, evicting
  // the previous owner, which is reconsidered. Auction-like and cheap; it leaves few rows for the
  // Dijkstra phase. v only decreases, so every other row's u stays feasible; budget 2n steps.
  void augmenting_row_reduction() {
    std::vector<int> todo;
    for (int i = 0; i < n_; ++i)
      if (row_match_[sz(i)] < 0 && !p_.row_open[sz(i)]) todo.push_back(i);
    for (std::size_t head = 0, budget = 2 * sz(n_); head < todo.size() && budget > 0; --budget) {
      const int i = todo[head++];
      double u1 = kInf, u2 = kInf;
      int j1 = -1, j2 = -1;
      for (int e = p_.row_start[sz(i)]; e < p_.row_start[sz(i) + 1]; ++e) {
        const int j = p_.col[sz(e)];
        const double h = p_.cost[sz(e)] - v_[sz(j)];
        if (h < u1) {
          u2 = u1, j2 = j1, u1 = h, j1 = j;
        } else if (h < u2) {
          u2 = h, j2 = j;
        }
      }
      if (j1 < 0) continue;  // no edge: the Dijkstra phase reports infeasibility
      if (u1 < u2 && u2 < kInf) {
        set_v(j1, v_[sz(j1)] - (u2 - u1));
      } else if (col_match_[sz(j1)] >= 0 && j2 >= 0) {
        j1 = j2;  // tie: prefer the other best column rather than evict
      }
      const int prev = col_match_[sz(j1)];
      if (prev >= 0) {
        row_match_[sz(prev)] = -1;
        if (!p_.row_open[sz(prev)]) todo.push_back(prev);
      }
      match(i, j1);
      u_[sz(i)] = u2 < kInf ? u2 : u1;
    }
  }

  void set_v(int j, double value) {
    v_[sz(j)] = value;
    if (!p_.col_open[sz(j)]) return;
    open_.push_back({value, -j});  // the old heap entry is now stale
    std::push_heap(open_.begin(), open_.end());
  }

  void match(int i, int j) {
    row_match_[sz(i)] = j;
    col_match_[sz(j)] = i;
  }

  // Relaxes the explicit edges of row i (reached at distance d) and offers its fillers.
  void scan(int i, double d) {
    scanned_.push_back({i, d});
    const double ui = u_[sz(i)];
    for (int e = p_.row_start[sz(i)]; e < p_.row_start[sz(i) + 1]; ++e) {
      const int j = p_.col[sz(e)];
      if (done_[sz(j)] == epoch_) continue;
      assert(!(p_.row_open[sz(i)] && p_.col_open[sz(j)]) || p_.cost[sz(e)] <= 0.0);
      const double cand = d + p_.cost[sz(e)] - ui - v_[sz(j)];
      if (stamp_[sz(j)] != epoch_ || cand < dist_[sz(j)]) {
        stamp_[sz(j)] = epoch_;
        dist_[sz(j)] = cand;
        pred_[sz(j)] = i;
        heap_.push_back({cand, j});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
      }
    }
    if (p_.row_open[sz(i)] && d - ui < filler_base_) {
      filler_base_ = d - ui;
      filler_row_ = i;
    }
  }

  // Next column to finalise: the cheaper of the best explicit candidate and the best filler.
  bool pick(int& j, double& d) {
    while (!heap_.empty()) {
      const auto [x, c] = heap_.front();
      if (done_[sz(c)] != epoch_ && x == dist_[sz(c)]) break;
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    }
    const double filler = filler_row_ >= 0 ? filler_base_ - max_open_v() : kInf;
    if (heap_.empty() && filler == kInf) return false;
    if (!heap_.empty() && heap_.front().first <= filler) {
      std::tie(d, j) = heap_.front();
    } else {
      j = -open_.front().second;
      d = filler;
      pred_[sz(j)] = filler_row_;
    }
    done_[sz(j)] = epoch_;
    if (p_.col_open[sz(j)]) finalised_open_.push_back(j);
    finalised_.push_back({j, d});
    return true;
  }

  bool augment_from(int root) {
    ++epoch_;
    heap_.clear();
    scanned_.clear();
    finalised_.clear();
    finalised_open_.clear();
    filler_base_ = kInf;
    filler_row_ = -1;
    scan(root, 0.0);
    int sink = -1;
    double d_sink = 0.0;
    for (;;) {
      int j = -1;
      double d = 0.0;
      if (!pick(j, d)) return false;
      if (col_match_[sz(j)] < 0) {
        sink = j;
        d_sink = d;
        break;
      }
      scan(col_match_[sz(j)], d);
    }
    update_duals(d_sink);
    for (int j = sink;;) {  // flip the alternating path back to the root
      const int i = pred_[sz(j)];
      const int next = row_match_[sz(i)];
      match(i, j);
      if (i == root) break;
      j = next;
    }
    return true;
  }

  // Standard Dijkstra potential update: keeps reduced costs >= 0 and the tree edges tight.
  void update_duals(double d_sink) {
    for (const auto& [i, d] : scanned_) u_[sz(i)] += d_sink - d;
    for (const auto& [j, d] : finalised_) v_[sz(j)] -= d_sink - d;
    for (int j : finalised_open_) {  // re-offer with the new v (old entries are now stale)
      open_.push_back({v_[sz(j)], -j});
      std::push_heap(open_.begin(), open_.end());
    }
  }

  const SparseAssignmentProblem& p_;
  int n_;
  std::vector<double>& v_;
  std::vector<double> u_;
  std::vector<int> row_match_, col_match_;
  std::vector<double> dist_;
  std::vector<int> pred_;
  std::vector<unsigned> stamp_, done_;
  unsigned epoch_ = 1;  // stamps start at 0: nothing is finalised before the first search
  std::vector<std::pair<double, int>> open_;  // lazy max-heap of open columns by (v, -index)
  std::vector<std::pair<double, int>> heap_;
  std::vector<std::pair<int, double>> scanned_, finalised_;
  std::vector<int> finalised_open_;
  double filler_base_ = kInf;
  int filler_row_ = -1;
};

}  // namespace

SparseAssignmentResult completion_assignment(const SparseAssignmentProblem& p,
                                             std::vector<double>& col_potential) {
  assert(static_cast<int>(col_potential.size()) == p.n);
  return CompletionSolver(p, col_potential).run();
}

}  // namespace flux
