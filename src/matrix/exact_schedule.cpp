#include "matrix/exact_schedule.hpp"

// The only translation unit that sees COIN-OR headers in this module.
#include <CbcModel.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace flux {

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

std::vector<std::vector<int>> all_permutations(int n) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<int>> out;
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

// Column layout: T, then (x_kp, y_kp) pairs.
struct Layout {
  int perms = 0;
  int x(int k, int p) const { return 1 + 2 * (k * perms + p); }
  int y(int k, int p) const { return x(k, p) + 1; }
  int columns(int s) const { return 1 + 2 * s * perms; }
};

struct Model {
  CoinPackedMatrix rows{false, 0, 0};
  std::vector<double> row_lo, row_hi;
  void add(const CoinPackedVector& row, double lo, double hi) {
    rows.appendRow(row);
    row_lo.push_back(lo);
    row_hi.push_back(hi);
  }
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

// The entries of D a permutation serves, as a bit set over n * n <= 64 cells.
std::uint64_t served_set(const Matrix& d, const std::vector<int>& q) {
  std::uint64_t bits = 0;
  for (int i = 0; i < d.n(); ++i)
    if (d(i, q[static_cast<std::size_t>(i)]) > 0)
      bits |= std::uint64_t{1} << (i * d.n() + q[static_cast<std::size_t>(i)]);
  return bits;
}

// A permutation whose served entries are a subset of another's is never needed (same cost,
// serves less), nor is a second one serving the same entries: keep one per maximal set. This
// removes most of the n! columns on sparse matrices.
void keep_dominant(const Matrix& d, std::vector<std::vector<int>>& perms) {
  std::vector<std::uint64_t> sets;
  for (const auto& q : perms) sets.push_back(served_set(d, q));
  std::vector<std::vector<int>> kept;
  for (std::size_t a = 0; a < perms.size(); ++a) {
    bool dominated = sets[a] == 0;
    for (std::size_t b = 0; b < perms.size() && !dominated; ++b)
      dominated = b != a && (sets[a] & ~sets[b]) == 0 && (sets[a] != sets[b] || b < a);
    if (!dominated) kept.push_back(perms[a]);
  }
  perms = std::move(kept);
}

Model build_rows(const MatrixProblem& p, const std::vector<std::vector<int>>& perms,
                 const Layout& c, const std::vector<double>& big_m) {
  const int s = p.switches, np = c.perms, n = p.time.n();
  Model m;
  m.rows.setDimensions(0, c.columns(s));
  for (int k = 0; k < s; ++k)
    for (int q = 0; q < np; ++q) {  // x_kq <= M y_kq
      CoinPackedVector row;
      row.insert(c.x(k, q), 1.0);
      row.insert(c.y(k, q), -big_m[static_cast<std::size_t>(q)]);
      m.add(row, -COIN_DBL_MAX, 0.0);
    }
  auto load = [&](int k, double sign, CoinPackedVector& row) {
    for (int q = 0; q < np; ++q) {
      row.insert(c.x(k, q), sign);
      row.insert(c.y(k, q), sign * p.delta);
    }
  };
  for (int k = 0; k < s; ++k) {  // load_k - T <= 0
    CoinPackedVector row;
    load(k, 1.0, row);
    row.insert(0, -1.0);
    m.add(row, -COIN_DBL_MAX, 0.0);
  }
  for (int k = 0; k + 1 < s; ++k) {  // load_k - load_{k+1} >= 0
    CoinPackedVector row;
    load(k, 1.0, row);
    load(k + 1, -1.0, row);
    m.add(row, 0.0, COIN_DBL_MAX);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (!(p.time(i, j) > 0)) continue;
      // Served long enough, and by at least one slot: the second row is implied for integral y
      // but makes the LP relaxation pay delta, which is what keeps CBC's tree small.
      CoinPackedVector served, slots;
      for (int k = 0; k < s; ++k)
        for (int q = 0; q < np; ++q)
          if (perms[static_cast<std::size_t>(q)][static_cast<std::size_t>(i)] == j) {
            served.insert(c.x(k, q), 1.0);
            slots.insert(c.y(k, q), 1.0);
          }
      m.add(served, p.time(i, j), COIN_DBL_MAX);
      m.add(slots, 1.0, COIN_DBL_MAX);
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
                           const Layout& c, const double* sol) {
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
  std::vector<std::vector<int>> perms = all_permutations(n);
  keep_dominant(p.time, perms);
  const Layout c{static_cast<int>(perms.size())};
  const Model m = build_rows(p, perms, c, useful_length(p.time, perms));

  const int cols = c.columns(p.switches);
  std::vector<double> col_lo(static_cast<std::size_t>(cols), 0.0),
      obj(static_cast<std::size_t>(cols), 0.0);
  std::vector<double> col_hi(static_cast<std::size_t>(cols), COIN_DBL_MAX);
  obj[0] = 1.0;
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.loadProblem(m.rows, col_lo.data(), col_hi.data(), obj.data(), m.row_lo.data(),
                     m.row_hi.data());
  for (int k = 0; k < p.switches; ++k)
    for (int q = 0; q < c.perms; ++q) {
      solver.setColUpper(c.y(k, q), 1.0);
      solver.setInteger(c.y(k, q));
    }
  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.setMaximumSeconds(opt.time_limit_seconds);
  model.setIntegerTolerance(1e-9);  // a y of 1e-7 would otherwise buy 1e-7 M of free service
  model.setAllowableGap(1e-12);
  model.setAllowableFractionGap(1e-12);
  model.branchAndBound();
  const double* sol = model.bestSolution();
  r.status = model.isProvenOptimal() && sol ? ExactStatus::optimal : ExactStatus::not_proven;
  if (!sol) return r;
  r.schedule = to_schedule(p, perms, c, sol);
  r.makespan = r.schedule.makespan;
  return r;
}

}  // namespace flux
