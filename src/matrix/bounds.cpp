#include "matrix/bounds.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <vector>

namespace flux {
namespace {

// What the bounds need of one row or column.
struct Line {
  double load = 0.0;          // L_p
  int nonzeros = 0;           // k_p
  std::vector<double> large;  // entries that may need more than one slot, descending
};

double line_lb1(const Line& l, int s, double delta) {
  return (l.load + delta * std::max(l.nonzeros, s)) / s;
}

// Rows then columns of the lines carrying demand. Entries <= `keep_above` are left out of
// `large` (they never need a second slot at the T the caller will try).
std::vector<Line> summarise(const Matrix& d, double keep_above) {
  const int n = d.n();
  std::vector<Line> lines(2 * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double v = d(i, j);
      if (!(v > 0)) continue;
      for (Line* l :
           {&lines[static_cast<std::size_t>(i)], &lines[static_cast<std::size_t>(n + j)]}) {
        l->load += v;
        ++l->nonzeros;
        if (v > keep_above) l->large.push_back(v);
      }
    }
  std::erase_if(lines, [](const Line& l) { return l.nonzeros == 0; });
  for (Line& l : lines) std::sort(l.large.begin(), l.large.end(), std::greater<>());
  return lines;
}

// Whether T passes LB2's test. ceil() gets a relative slack so that rounding never counts an
// extra slot at the exact breakpoint (which would lift the bound above a feasible makespan).
bool lb2_feasible(const std::vector<Line>& lines, double max_entry, int s, double delta, double t) {
  const double piece = t - delta;  // longest possible slot
  if (!(piece > 0) || max_entry > s * piece * (1 + 1e-12)) return false;
  for (const Line& l : lines) {
    long long slots = l.nonzeros;
    for (double v : l.large) {
      if (v <= piece) break;
      slots += static_cast<long long>(std::ceil(v / piece * (1 - 1e-12))) - 1;
    }
    const double need = (l.load + delta * static_cast<double>(std::max<long long>(slots, s))) / s;
    if (t < need * (1 - 1e-12)) return false;
  }
  return true;
}

// LB2 by bisection above LB1 (which the callers already have).
double lb2_above(const Matrix& time, int switches, double delta, double lb1) {
  if (lb1 == 0) return 0.0;
  // Below LB1 nothing is feasible, so entries <= LB1 - delta never need a second slot.
  const std::vector<Line> lines = summarise(time, lb1 - delta);
  const double max_entry = time.max_entry();
  // Feasible: every entry fits one slot and d_e <= s (T - delta); the right side is then LB1.
  double hi = std::max(lb1, delta + max_entry);
  double lo = lb1;
  if (lb2_feasible(lines, max_entry, switches, delta, lo)) return lo;
  // Invariant: lo is infeasible (so LB2 > lo), hi is feasible. Returning lo keeps the bound
  // valid whatever the precision reached.
  for (int step = 0; step < 200 && hi - lo > 1e-14 * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (lb2_feasible(lines, max_entry, switches, delta, mid) ? hi : lo) = mid;
  }
  return lo;
}

}  // namespace

double lower_bound_lb1(const Matrix& time, int switches, double delta) {
  assert(switches >= 1 && delta >= 0);
  double lb = 0.0;
  for (const Line& l : summarise(time, INFINITY)) lb = std::max(lb, line_lb1(l, switches, delta));
  return lb;
}

double lower_bound_lb2(const Matrix& time, int switches, double delta) {
  return lb2_above(time, switches, delta, lower_bound_lb1(time, switches, delta));
}

MatrixBounds matrix_lower_bounds(const Matrix& time, int switches, double delta) {
  MatrixBounds b;
  b.lb1 = lower_bound_lb1(time, switches, delta);
  b.lb2 = lb2_above(time, switches, delta, b.lb1);
  b.bound = std::max(b.lb1, b.lb2);
  return b;
}

double lower_bound(const Matrix& time, int switches, double delta) {
  return matrix_lower_bounds(time, switches, delta).bound;
}

}  // namespace flux
