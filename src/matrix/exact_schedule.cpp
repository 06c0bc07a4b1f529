#include "matrix/exact_schedule.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "milp/backend.hpp"

namespace flux::matrix {

const char* to_string(ExactStatus s) {
  switch (s) {
    case ExactStatus::optimal:
      return "optimal";
    case ExactStatus::not_proven:
      return "not-proven";
    case ExactStatus::too_large:
      return "too-large";
  }
  return "?";
}

namespace {

// Enumerates the maximal matchings of the support of D (inclusion-maximal sets of non-zeros, no
// two in a line) by include/exclude backtracking over the non-zeros in row-major order. An entry
// whose row and column are both free may be left out only if a later entry shares its row or
// column (otherwise the set could never become maximal); maximality itself is checked at the
// leaf. Stops once more than `limit` are found.
class MaximalMatchings {
 public:
  MaximalMatchings(const Matrix& d, std::size_t limit) : d_(d), limit_(limit) {
    const int n = d.n();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (d(i, j) > 0) entries_.push_back({i, j});
    last_in_row_.assign(static_cast<std::size_t>(n), -1);
    last_in_col_.assign(static_cast<std::size_t>(n), -1);
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      last_in_row_[static_cast<std::size_t>(entries_[e].first)] = static_cast<int>(e);
      last_in_col_[static_cast<std::size_t>(entries_[e].second)] = static_cast<int>(e);
    }
    row_used_.assign(static_cast<std::size_t>(n), 0);
    col_used_.assign(static_cast<std::size_t>(n), 0);
    visit(0);
  }
  [[nodiscard]] bool overflow() const { return found_.size() > limit_; }
  // Each matching completed to a full permutation: free rows take free columns in order (idle
  // circuits, which cost nothing).
  [[nodiscard]] std::vector<std::vector<int>> permutations() const {
    const int n = d_.n();
    std::vector<std::vector<int>> out;
    for (const auto& m : found_) {
      std::vector<int> perm(static_cast<std::size_t>(n), -1);
      std::vector<char> col_taken(static_cast<std::size_t>(n), 0);
      for (int e : m) {
        const auto [i, j] = entries_[static_cast<std::size_t>(e)];
        perm[static_cast<std::size_t>(i)] = j;
        col_taken[static_cast<std::size_t>(j)] = 1;
      }
      int next = 0;
      for (int& j : perm) {
        if (j >= 0) continue;
        while (col_taken[static_cast<std::size_t>(next)]) ++next;
        j = next++;
      }
      out.push_back(std::move(perm));
    }
    return out;
  }

 private:
  void visit(std::size_t e) {
    if (overflow()) return;
    if (e == entries_.size()) {
      if (maximal() && !chosen_.empty()) found_.push_back(chosen_);
      return;
    }
    const auto [i, j] = entries_[e];
    auto& r = row_used_[static_cast<std::size_t>(i)];
    auto& c = col_used_[static_cast<std::size_t>(j)];
    if (!r && !c) {
      r = c = 1;
      chosen_.push_back(static_cast<int>(e));
      visit(e + 1);
      chosen_.pop_back();
      r = c = 0;
      const int last = std::max(last_in_row_[static_cast<std::size_t>(i)],
                                last_in_col_[static_cast<std::size_t>(j)]);
      if (last == static_cast<int>(e)) return;  // nothing later could block this entry
    }
    visit(e + 1);
  }
  bool maximal() const {
    return std::all_of(entries_.begin(), entries_.end(), [&](const std::pair<int, int>& rc) {
      return row_used_[static_cast<std::size_t>(rc.first)] ||
             col_used_[static_cast<std::size_t>(rc.second)];
    });
  }

  const Matrix& d_;
  std::size_t limit_;
  std::vector<std::pair<int, int>> entries_;
  std::vector<int> last_in_row_, last_in_col_;  // index of the last entry in each line
  std::vector<char> row_used_, col_used_;
  std::vector<int> chosen_;
  std::vector<std::vector<int>> found_;
};

// Column layout: T, then (x_kp, y_kp) pairs.
struct Layout {
  int perms = 0;
  int x(int k, int p) const { return 1 + 2 * (k * perms + p); }
  int y(int k, int p) const { return x(k, p) + 1; }
};

// Longest useful duration of each permutation: its largest entry (0 = serves nothing).
std::vector<double> useful_length(const Matrix& d, const std::vector<std::vector<int>>& perms) {
  std::vector<double> len;
  for (const auto& q : perms) {
    double m = 0.0;
    for (int i = 0; i < d.n(); ++i) m = std::max(m, d(i, q[static_cast<std::size_t>(i)]));
    len.push_back(m);
  }
  return len;
}

milp::Model build_model(const MatrixProblem& p, const std::vector<std::vector<int>>& perms,
                        const Layout& c, const std::vector<double>& big_m) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const int s = p.switches, np = c.perms, n = p.time.n();
  milp::Model m;
  m.title = "Flux exact matrix schedule";
  m.add_column("T", 0.0, kInf, 1.0, false);
  for (int k = 0; k < s; ++k)
    for (int q = 0; q < np; ++q) {
      m.add_column(fmt::format("x{}_{}", k, q), 0.0, kInf, 0.0, false);
      m.add_column(fmt::format("y{}_{}", k, q), 0.0, 1.0, 0.0, true);
    }
  for (int k = 0; k < s; ++k)
    for (int q = 0; q < np; ++q)  // x_kq <= M y_kq
      m.add_row(fmt::format("long{}_{}", k, q), {c.x(k, q), c.y(k, q)},
                {1.0, -big_m[static_cast<std::size_t>(q)]}, '<', 0.0);
  for (int k = 0; k < s; ++k) {  // load_k - T <= 0
    std::vector<int> cols;
    std::vector<double> coefs;
    for (int q = 0; q < np; ++q) {
      cols.insert(cols.end(), {c.x(k, q), c.y(k, q)});
      coefs.insert(coefs.end(), {1.0, p.delta});
    }
    cols.push_back(0);
    coefs.push_back(-1.0);
    m.add_row(fmt::format("load{}", k), std::move(cols), std::move(coefs), '<', 0.0);
  }
  // Symmetry: order the switches by the smallest permutation index they use (empty ones last).
  // Then a switch using q implies that the previous one uses some q' <= q.
  for (int k = 1; k < s; ++k)
    for (int q = 0; q < np; ++q) {
      std::vector<int> cols{c.y(k, q)};
      std::vector<double> coefs{1.0};
      for (int r = 0; r <= q; ++r) {
        cols.push_back(c.y(k - 1, r));
        coefs.push_back(-1.0);
      }
      m.add_row(fmt::format("sym{}_{}", k, q), std::move(cols), std::move(coefs), '<', 0.0);
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (!(p.time(i, j) > 0)) continue;
      // Served long enough, and by at least one slot: the second row is implied for integral y
      // but makes the LP relaxation pay delta, which is what keeps CBC's tree small.
      std::vector<int> served, slots;
      for (int k = 0; k < s; ++k)
        for (int q = 0; q < np; ++q)
          if (perms[static_cast<std::size_t>(q)][static_cast<std::size_t>(i)] == j) {
            served.push_back(c.x(k, q));
            slots.push_back(c.y(k, q));
          }
      std::vector<double> ones(served.size(), 1.0);
      m.add_row(fmt::format("served{}_{}", i, j), std::move(served), ones, '>', p.time(i, j));
      m.add_row(fmt::format("slots{}_{}", i, j), std::move(slots), std::move(ones), '>', 1.0);
    }
  return m;
}

MatrixSchedule empty_schedule(const MatrixProblem& p) {
  MatrixSchedule out;
  out.algorithm = "exact-milp";
  out.n = p.time.n();
  out.switches = p.switches;
  out.delta = p.delta;
  return out;
}

// Slots from the solution: on each switch the chosen permutations back to back after delta.
MatrixSchedule to_schedule(const MatrixProblem& p, const std::vector<std::vector<int>>& perms,
                           const Layout& c, const std::vector<double>& sol) {
  MatrixSchedule out = empty_schedule(p);
  for (int k = 0; k < p.switches; ++k) {
    double t = 0.0;
    for (int q = 0; q < c.perms; ++q) {
      if (sol[c.y(k, q)] < 0.5) continue;
      const double dur = std::max(0.0, sol[c.x(k, q)]);
      out.slots.push_back({k, t + p.delta, t + p.delta + dur, perms[static_cast<std::size_t>(q)]});
      t += p.delta + dur;
    }
  }
  out.makespan = schedule_end(out);
  return out;
}

}  // namespace

ExactResult exact_matrix_schedule(const MatrixProblem& p, const ExactOptions& opt) {
  ExactResult r;
  const int n = p.time.n();
  if (n > opt.max_ports || p.switches > opt.max_switches || n < 1 || p.switches < 1) return r;
  if (p.time.max_entry() == 0) {  // nothing to send: the empty schedule
    r.status = ExactStatus::optimal;
    r.schedule = empty_schedule(p);
    return r;
  }
  const MaximalMatchings matchings(p.time, static_cast<std::size_t>(opt.max_permutations));
  if (matchings.overflow()) return r;
  const std::vector<std::vector<int>> perms = matchings.permutations();
  const Layout c{static_cast<int>(perms.size())};
  milp::Limits limits;
  limits.time_limit = opt.time_limit_seconds;
  limits.cpu_time = true;
  limits.gap = 1e-12;
  limits.integer_tolerance = 1e-9;  // a y of 1e-7 would otherwise buy 1e-7 M of free service
  limits.cuts = false;              // plain branch and bound is enough at this size
  const milp::Result solved =
      milp::CbcBackend().solve(build_model(p, perms, c, useful_length(p.time, perms)), limits);
  r.status =
      solved.status == milp::Status::optimal ? ExactStatus::optimal : ExactStatus::not_proven;
  if (solved.values.empty()) return r;
  const std::vector<double>& sol = solved.values;
  r.schedule = to_schedule(p, perms, c, sol);
  r.makespan = r.schedule.makespan;
  return r;
}

}  // namespace flux::matrix
