#include "matching/completion_assignment.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>

namespace flux::matching {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// 4-ary min-heap of columns keyed by distance (ties: smaller index), with decrease-key: every
// column is in the heap at most once, so there are no stale entries. Keys are stored beside the
// indices so that sifting reads one contiguous array. Pops follow the total order (key, index),
// so the order in which columns leave does not depend on the heap's layout or arity. 4-ary:
// Dijkstra pushes far more columns than it pops, and many pushes along tight edges carry the
// current minimum, so they sift up the whole height, which is half as tall as a binary heap's.
class ColumnHeap {
 public:
  explicit ColumnHeap(int n) : pos_(static_cast<std::size_t>(n), -1) {
    heap_.reserve(static_cast<std::size_t>(n));  // holds each column at most once
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] int top() const { return heap_.front().j; }
  [[nodiscard]] double top_key() const { return heap_.front().key; }
  // Inserts j with `key`, or lowers its key to `key` and restores order.
  void push_or_decrease(int j, double key) {
    int& at = pos_[static_cast<std::size_t>(j)];
    if (at < 0) {
      at = static_cast<int>(heap_.size());
      heap_.push_back({key, j});
    }
    sift_up(at, {key, j});
  }
  void pop() {
    pos_[static_cast<std::size_t>(heap_.front().j)] = -1;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return;
    sift_down(last);
  }
  void clear() {
    for (const Entry& x : heap_) pos_[static_cast<std::size_t>(x.j)] = -1;
    heap_.clear();
  }

 private:
  static constexpr int kArity = 4;
  struct Entry {
    double key;
    int j;
  };
  static bool less(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.j < b.j);
  }
  void place(int at, const Entry& x) {
    heap_[static_cast<std::size_t>(at)] = x;
    pos_[static_cast<std::size_t>(x.j)] = at;
  }
  void sift_up(int at, const Entry x) {
    while (at > 0) {
      const int parent = (at - 1) / kArity;
      if (!less(x, heap_[static_cast<std::size_t>(parent)])) break;
      place(at, heap_[static_cast<std::size_t>(parent)]);
      at = parent;
    }
    place(at, x);
  }
  // Places x, which replaces the root, where it belongs.
  void sift_down(const Entry x) {
    const int size = static_cast<int>(heap_.size());
    int at = 0;
    for (;;) {
      const int first = kArity * at + 1;
      if (first >= size) break;
      int child = first;
      for (int c = first + 1; c < std::min(first + kArity, size); ++c)
        if (less(heap_[static_cast<std::size_t>(c)], heap_[static_cast<std::size_t>(child)]))
          child = c;
      if (!less(heap_[static_cast<std::size_t>(child)], x)) break;
      place(at, heap_[static_cast<std::size_t>(child)]);
      at = child;
    }
    place(at, x);
  }

  std::vector<int> pos_;  // index in heap_, or -1
  std::vector<Entry> heap_;
};

}  // namespace

// Declared in the header (CompletionWorkspace holds one); defined only here.
class CompletionSolver {
 public:
  CompletionSolver(int n, const CompletionOptions& opt)
      : n_(n),
        reduction_steps_per_row_(opt.reduction_steps_per_row),
        u_(sz(n_), 0.0),
        matched_cost_(sz(n_), 0.0),
        row_match_(sz(n_), -1),
        col_match_(sz(n_), -1),
        dist_(sz(n_), kInf),
        pred_(sz(n_), -1),
        stamp_(sz(n_), 0),
        done_(sz(n_), 0),
        heap_(n_) {
    // Each search scans and finalises at most n rows and columns, ARR queues at most n rows
    // beyond its budget: reserving once keeps every later solve free of allocation.
    for (auto* v : {&scanned_, &finalised_}) v->reserve(sz(n_));
    for (auto* v : {&finalised_open_, &top_free_, &top_, &todo_}) v->reserve(sz(n_));
    todo_.reserve(3 * sz(n_));
    open_.reserve(4 * sz(n_));
    result_.row_to_col.reserve(sz(n_));
  }
  [[nodiscard]] int size() const { return n_; }
  [[nodiscard]] const SolveStats& stats() const { return stats_; }

  // Solves p (of this solver's size) from the column potentials v; reuses every buffer.
  const SparseAssignmentResult& solve(const SparseAssignmentProblem& p, std::vector<double>& v) {
    p_ = &p;
    v_ = &v;
    std::fill(u_.begin(), u_.end(), 0.0);
    std::fill(row_match_.begin(), row_match_.end(), -1);
    std::fill(col_match_.begin(), col_match_.end(), -1);
    open_.clear();
    // Stamps and finalised marks compare with a counter that only grows; a fresh value marks
    // no column as finalised, as in a new solver.
    ++epoch_;
    return run();
  }

  // Warm re-solve after a solve of a problem p0 with p >= p0 pointwise (allowed(p) ⊆ allowed(p0),
  // costs never lower): the previous (u, v) stay feasible, so the previous pairs whose cost is
  // unchanged stay matched and tight; only the other rows are re-matched (greedy, ARR, Dijkstra).
  const SparseAssignmentResult& resolve(const SparseAssignmentProblem& p, std::vector<double>& v) {
    p_ = &p;
    v_ = &v;
    open_.clear();
    ++epoch_;
    for (int i = 0; i < n_; ++i) {
      const int j = row_match_[sz(i)];
      // After an infeasible solve matched_cost_ is stale: keep nothing then.
      if (j >= 0 && (!result_.feasible || pair_cost(i, j) != matched_cost_[sz(i)])) {
        row_match_[sz(i)] = -1;
        col_match_[sz(j)] = -1;
      }
    }
    warm_ = true;
    const SparseAssignmentResult& r = run();
    warm_ = false;
    return r;
  }

 private:
  // Cost of (i, j) in p: its explicit edge, 0 for a filler between open lines, NaN if forbidden.
  double pair_cost(int i, int j) const {
    for (int e = p_->row_start[sz(i)]; e < p_->row_start[sz(i) + 1]; ++e)
      if (p_->col[sz(e)] == j) return p_->cost[sz(e)];
    return p_->row_open[sz(i)] && p_->col_open[sz(j)] ? 0.0
                                                      : std::numeric_limits<double>::quiet_NaN();
  }

  const SparseAssignmentResult& run() {
    stats_ = {};
    SparseAssignmentResult& r = result_;
    r.feasible = false;
    r.row_to_col.clear();
    r.cost = 0.0;
    for (int j = 0; j < n_; ++j)
      if (p_->col_open[sz(j)]) open_.push_back({(*v_)[sz(j)], -j});
    std::make_heap(open_.begin(), open_.end());
    if (!init_duals_and_greedy()) return r;
    augmenting_row_reduction();
    for (int i = 0; i < n_; ++i)
      if (row_match_[sz(i)] < 0 && !augment_from(i)) return r;
    r.feasible = true;
    r.row_to_col = row_match_;
    const int* const row_start = p_->row_start.data();
    const int* const col = p_->col.data();
    for (int i = 0; i < n_; ++i) {
      double c = 0.0;  // a filler unless the pair is an explicit edge
      for (int e = row_start[i], j = row_match_[sz(i)]; e < row_start[i + 1]; ++e)
        if (col[e] == j) {
          c = p_->cost[sz(e)];
          break;
        }
      matched_cost_[sz(i)] = c;
      r.cost += c;
    }
    return r;
  }

  static std::size_t sz(int i) { return static_cast<std::size_t>(i); }
  // Drops heap entries of columns finalised in this search or whose v changed since the push.
  void clean_open_top() {
    while (!open_.empty()) {
      const auto [v, neg_j] = open_.front();
      if (done_[sz(-neg_j)] != epoch_ && v == (*v_)[sz(-neg_j)]) return;
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
    std::vector<int>& top = top_;  // open columns with v == vmax: the tight fillers
    top.clear();
    for (int j = 0; j < n_; ++j)
      if (p_->col_open[sz(j)] && (*v_)[sz(j)] == vmax) top.push_back(j);
    std::size_t next_top = 0;
    const int* const row_start = p_->row_start.data();
    const int* const col = p_->col.data();
    const double* const cost = p_->cost.data();
    const double* const v = v_->data();
    for (int i = 0; i < n_; ++i) {
      if (warm_ && row_match_[sz(i)] >= 0) continue;  // kept pair: u_i stays feasible and tight
      double best = p_->row_open[sz(i)] ? -vmax : kInf;
      const int first = row_start[i], last = row_start[i + 1];
      for (int e = first; e < last; ++e) best = std::min(best, cost[e] - v[col[e]]);
      if (best == kInf) return false;  // no allowed pair at all
      u_[sz(i)] = best;
      for (int e = first; e < last; ++e) {
        const int j = col[e];
        if (col_match_[sz(j)] < 0 && cost[e] - v[j] == best) {
          match(i, j);
          break;
        }
      }
      if (row_match_[sz(i)] >= 0 || !p_->row_open[sz(i)] || -vmax != best) continue;
      while (next_top < top.size() && col_match_[sz(top[next_top])] >= 0) ++next_top;
      if (next_top < top.size()) match(i, top[next_top]);
    }
    return true;
  }

  // Jonker–Volgenant augmenting row reduction: a free row takes its best column and lowers that
  // column's v so that its second-best option becomes as good, evicting the previous owner, which
  // is reconsidered. For open rows the filler block is one more option at -max_open_v(), taken
  // through any free open column of maximal v. Auction-like and cheap; in DECOMPOSE it matches
  // every critical row and most others, leaving few rows for the Dijkstra phase. v only
  // decreases, so every other row's u stays feasible. Budget: reduction_steps_per_row_ x n steps
  // (ties can make it cycle, so it needs one).
  void augmenting_row_reduction() {
    std::vector<int>& todo = todo_;
    todo.clear();
    for (int i = 0; i < n_; ++i)
      if (row_match_[sz(i)] < 0) todo.push_back(i);
    top_free_.clear();
    const double vmax = max_open_v();
    for (int j = 0; j < n_; ++j)
      if (p_->col_open[sz(j)] && col_match_[sz(j)] < 0 && (*v_)[sz(j)] == vmax)
        top_free_.push_back(j);
    next_top_free_ = 0;
    for (std::size_t head = 0, budget = sz(reduction_steps_per_row_) * sz(n_);
         head < todo.size() && budget > 0; --budget) {
      const int i = todo[head++];
      const int evicted = reduce_row(i);
      if (evicted >= 0) todo.push_back(evicted);
    }
  }

  // One ARR step for row i; returns the evicted row or -1.
  int reduce_row(int i) {
    const int first = p_->row_start[sz(i)], last = p_->row_start[sz(i) + 1];
    stats_.work += 1 + last - first;
    double u1 = kInf, u2 = kInf;
    int j1 = -1, j2 = -1;
    const int* const col = p_->col.data();
    const double* const cost = p_->cost.data();
    const double* const v = v_->data();
    for (int e = first; e < last; ++e) {
      const int j = col[e];
      const double h = cost[e] - v[j];
      if (h < u1) {
        u2 = u1, j2 = j1, u1 = h, j1 = j;
      } else if (h < u2) {
        u2 = h, j2 = j;
      }
    }
    const double filler = p_->row_open[sz(i)] ? -max_open_v() : kInf;
    if (filler <= u1 && filler < kInf) {  // the filler block is (one of) the best options
      if (take_free_top(i)) return -1;
      if (filler < u1) return -1;  // no tight free filler: left to Dijkstra
    }
    if (j1 < 0) return -1;  // no edge: the Dijkstra phase reports infeasibility
    const double second = std::min(u2, filler);
    if (u1 < second && second < kInf) {
      set_v(j1, (*v_)[sz(j1)] - (second - u1));
    } else if (col_match_[sz(j1)] >= 0 && j2 >= 0 && u2 == u1) {
      j1 = j2;  // tie: prefer the other best column rather than evict
    }
    const int prev = col_match_[sz(j1)];
    if (prev >= 0) row_match_[sz(prev)] = -1;
    match(i, j1);
    u_[sz(i)] = second < kInf ? second : u1;
    return prev;
  }

  // Matches open row i to a free open column of maximal v (a tight filler), if one is left.
  bool take_free_top(int i) {
    const double vmax = max_open_v();
    for (; next_top_free_ < top_free_.size(); ++next_top_free_) {
      const int j = top_free_[next_top_free_];
      if (col_match_[sz(j)] >= 0 || (*v_)[sz(j)] != vmax) continue;
      match(i, j);
      u_[sz(i)] = -vmax;
      ++next_top_free_;
      return true;
    }
    return false;
  }

  void set_v(int j, double value) {
    (*v_)[sz(j)] = value;
    if (!p_->col_open[sz(j)]) return;
    open_.push_back({value, -j});  // the old heap entry is now stale
    std::push_heap(open_.begin(), open_.end());
  }

  void match(int i, int j) {
    row_match_[sz(i)] = j;
    col_match_[sz(j)] = i;
  }

  // Relaxes the explicit edges of row i (reached at distance d) and offers its fillers.
  // The hot loop of the Dijkstra phase: array bases are read into locals once, so the stores
  // into the heap and the distance arrays do not force them to be reloaded per edge.
  void scan(int i, double d) {
    const int first = p_->row_start[sz(i)], last = p_->row_start[sz(i) + 1];
    stats_.work += 1 + last - first;
    stats_.search_work += 1 + last - first;
    scanned_.push_back({i, d});
    const double ui = u_[sz(i)];
    const int* const col = p_->col.data();
    const double* const cost = p_->cost.data();
    const double* const v = v_->data();
    const unsigned* const done = done_.data();
    unsigned* const stamp = stamp_.data();
    double* const dist = dist_.data();
    int* const pred = pred_.data();
    const unsigned epoch = epoch_;
    for (int e = first; e < last; ++e) {
      const int j = col[e];
      if (done[j] == epoch) continue;
      assert(!(p_->row_open[sz(i)] && p_->col_open[sz(j)]) || cost[e] <= 0.0);
      const double cand = d + cost[e] - ui - v[j];
      if (stamp[j] != epoch || cand < dist[j]) {
        stamp[j] = epoch;
        dist[j] = cand;
        pred[j] = i;
        heap_.push_or_decrease(j, cand);
      }
    }
    if (p_->row_open[sz(i)] && d - ui < filler_base_) {
      filler_base_ = d - ui;
      filler_row_ = i;
    }
  }

  // Next column to finalise: the cheaper of the best explicit candidate and the best filler.
  bool pick(int& j, double& d) {
    // A column finalised through a filler may still sit in the heap: drop it.
    while (!heap_.empty() && done_[sz(heap_.top())] == epoch_) heap_.pop();
    const double filler = filler_row_ >= 0 ? filler_base_ - max_open_v() : kInf;
    if (heap_.empty() && filler == kInf) return false;
    if (!heap_.empty() && heap_.top_key() <= filler) {
      j = heap_.top();
      d = heap_.top_key();
      heap_.pop();
    } else {
      j = -open_.front().second;
      d = filler;
      pred_[sz(j)] = filler_row_;
    }
    done_[sz(j)] = epoch_;
    if (p_->col_open[sz(j)]) finalised_open_.push_back(j);
    finalised_.push_back({j, d});
    return true;
  }

  bool augment_from(int root) {
    ++stats_.searches;
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
    for (const auto& [j, d] : finalised_) (*v_)[sz(j)] -= d_sink - d;
    for (int j : finalised_open_) {  // re-offer with the new v (old entries are now stale)
      open_.push_back({(*v_)[sz(j)], -j});
      std::push_heap(open_.begin(), open_.end());
    }
  }

  const SparseAssignmentProblem* p_ = nullptr;
  int n_;
  int reduction_steps_per_row_;
  std::vector<double>* v_ = nullptr;
  std::vector<double> u_;
  std::vector<double> matched_cost_;  // cost of each row's pair in the last solution
  std::vector<int> row_match_, col_match_;
  std::vector<double> dist_;
  std::vector<int> pred_;
  std::vector<unsigned> stamp_, done_;
  unsigned epoch_ = 1;  // stamps start at 0: nothing is finalised before the first search
  std::vector<std::pair<double, int>> open_;  // lazy max-heap of open columns by (v, -index)
  ColumnHeap heap_;
  std::vector<std::pair<int, double>> scanned_, finalised_;
  std::vector<int> finalised_open_;
  std::vector<int> top_free_;    // ARR: free open columns of maximal v
  std::vector<int> top_, todo_;  // scratch of the greedy pass and of ARR
  SparseAssignmentResult result_;
  std::size_t next_top_free_ = 0;
  double filler_base_ = kInf;
  int filler_row_ = -1;
  bool warm_ = false;  // resolve(): rows still matched keep their pair and their u
  SolveStats stats_;
};

SparseAssignmentResult completion_assignment(const SparseAssignmentProblem& p,
                                             std::vector<double>& col_potential,
                                             const CompletionOptions& opt) {
  assert(static_cast<int>(col_potential.size()) == p.n);
  return CompletionSolver(p.n, opt).solve(p, col_potential);
}

CompletionWorkspace::CompletionWorkspace(const CompletionOptions& opt) : opt_(opt) {}
CompletionWorkspace::~CompletionWorkspace() = default;

const SparseAssignmentResult& CompletionWorkspace::solve(const SparseAssignmentProblem& p,
                                                         std::vector<double>& col_potential) {
  assert(static_cast<int>(col_potential.size()) == p.n);
  if (!solver_ || solver_->size() != p.n) solver_ = std::make_unique<CompletionSolver>(p.n, opt_);
  return solver_->solve(p, col_potential);
}

SolveStats CompletionWorkspace::last_stats() const {
  return solver_ ? solver_->stats() : SolveStats{};
}

const SparseAssignmentResult& CompletionWorkspace::resolve(const SparseAssignmentProblem& p,
                                                           std::vector<double>& col_potential) {
  assert(static_cast<int>(col_potential.size()) == p.n);
  if (!solver_ || solver_->size() != p.n) return solve(p, col_potential);
  return solver_->resolve(p, col_potential);
}

}  // namespace flux::matching
