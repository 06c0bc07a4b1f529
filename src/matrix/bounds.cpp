#include "matrix/bounds.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <vector>

#include "matrix/line_packing.hpp"

namespace flux::matrix {
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

// Slots line l needs when no slot lasts longer than `piece`: sum over its entries of
// max(1, ceil(d_e / piece)). ceil() gets a relative slack so that rounding never counts an extra
// slot at the exact breakpoint (which would lift a bound above a feasible makespan).
long long line_slots(const Line& l, double piece) {
  long long slots = l.nonzeros;
  for (double v : l.large) {
    if (v <= piece) break;
    slots += static_cast<long long>(std::ceil(v / piece * (1 - 1e-12))) - 1;
  }
  return slots;
}

// Whether every entry fits on s switches at makespan t: d_e <= s (t - delta).
bool entries_fit(double max_entry, int s, double delta, double t) {
  const double piece = t - delta;
  return piece > 0 && max_entry <= s * piece * (1 + 1e-12);
}

// (load + delta * max(slots, s)) / s <= t, up to rounding.
bool meets(double load, long long slots, int s, double delta, double t) {
  const double need = (load + delta * static_cast<double>(std::max<long long>(slots, s))) / s;
  return t >= need * (1 - 1e-12);
}

// Whether T passes LB2's test: every line on its own.
bool lb2_feasible(const std::vector<Line>& lines, double max_entry, int s, double delta, double t) {
  if (!entries_fit(max_entry, s, delta, t)) return false;
  return std::all_of(lines.begin(), lines.end(), [&](const Line& l) {
    return meets(l.load, line_slots(l, t - delta), s, delta, t);
  });
}

// Whether T passes LB3's test: the largest line load with the largest slot count of any line.
bool lb3_feasible(const std::vector<Line>& lines, double max_entry, int s, double delta, double t) {
  if (!entries_fit(max_entry, s, delta, t)) return false;
  double max_load = 0.0;
  long long max_slots = 0;
  for (const Line& l : lines) {
    max_load = std::max(max_load, l.load);
    max_slots = std::max(max_slots, line_slots(l, t - delta));
  }
  return meets(max_load, max_slots, s, delta, t);
}

// A bracket [lo, hi] of the threshold of a monotone test (failing below it, passing above) with
// hi passing, narrowed by bisection to `precision` (relative) from a bracket that already is one.
template <class Feasible>
std::pair<double, double> bracket_threshold(double lo, double hi, Feasible feasible,
                                            double precision) {
  for (int step = 0; step < 200 && hi - lo > precision * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (feasible(mid) ? hi : lo) = mid;
  }
  return {lo, hi};
}

// The smallest T passing a monotone test, searched in [lo, hi] where hi passes. Returns lo itself
// if it passes, else the largest point known to fail, so the result never exceeds the true
// threshold whatever precision is reached.
template <class Feasible>
double smallest_feasible(double lo, double hi, Feasible feasible, double precision = 1e-14) {
  if (feasible(lo)) return lo;
  return bracket_threshold(lo, hi, feasible, precision).first;
}

// A T at which LB3's test passes: every entry fits one slot (so a line needs k_p slots) and the
// largest load with the largest k_p fits.
double always_feasible(const std::vector<Line>& lines, double max_entry, int s, double delta) {
  double max_load = 0.0;
  int max_k = 0;
  for (const Line& l : lines) {
    max_load = std::max(max_load, l.load);
    max_k = std::max(max_k, l.nonzeros);
  }
  return std::max(delta + max_entry, (max_load + delta * std::max(max_k, s)) / s);
}

// LB4 from `known`, a valid bound. Each line is first bracketed with its cheap witness alone
// (LinePacking::packs) in [known, chain], where the chain bound s T = sum (d_e + delta) +
// (s - 1) delta always fits (one sequence split at every switch boundary); the lines are then
// searched with the full test by decreasing witnessed T, each only above the bound so far, and
// only while its witnessed T lies above it: the lines most likely to bind come first, and once
// they have raised the bound most others need no LP at all. The full test proves infeasibility
// only, so every raise is a T proven infeasible; 1e-5 relative precision.
constexpr long long kLinePackingWork = 30'000'000;  // knapsack cells per matrix

double line_packing_bound(const Matrix& time, int s, double delta, double known) {
  std::vector<std::pair<double, LinePacking>> lines;  // (a T its witness packs, the line)
  for (const Line& l : summarise(time, 0.0)) {        // `large` then holds every entry
    LinePacking line(l.large, s, delta);
    if (line.packs(known)) continue;
    const double chain = (l.load + delta * static_cast<double>(l.nonzeros + s - 1)) / s;
    const double packed = bracket_threshold(
                              known, chain, [&](double t) { return line.packs(t); }, 1e-3)
                              .second;
    lines.emplace_back(packed, std::move(line));
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  long long work = kLinePackingWork;
  double lb = known;
  for (auto& [packed, line] : lines) {
    if (packed <= lb) break;
    LinePacking& packing = line;  // a structured binding cannot be captured before clang 16
    lb = smallest_feasible(
        lb, packed, [&](double t) { return !packing.infeasible(t, work); }, 1e-5);
  }
  return lb;
}

}  // namespace

double lower_bound_lb1(const Matrix& time, int switches, double delta) {
  assert(switches >= 1 && delta >= 0);
  double lb = 0.0;
  for (const Line& l : summarise(time, INFINITY)) lb = std::max(lb, line_lb1(l, switches, delta));
  return lb;
}

namespace {

// LB1 to LB3, the bounds that count slots (LB4 left at 0): O(n^2) and bisections on line summaries.
MatrixBounds slot_count_bounds(const Matrix& time, int switches, double delta) {
  MatrixBounds b;
  b.lb1 = lower_bound_lb1(time, switches, delta);
  if (b.lb1 == 0) return b;
  // Below LB1 nothing is feasible, so entries <= LB1 - delta never need a second slot.
  const std::vector<Line> lines = summarise(time, b.lb1 - delta);
  const double max_entry = time.max_entry();
  // LB2 passes where every entry fits one slot: each line then needs k_p slots, which is LB1.
  b.lb2 = smallest_feasible(b.lb1, std::max(b.lb1, delta + max_entry), [&](double t) {
    return lb2_feasible(lines, max_entry, switches, delta, t);
  });
  // LB3's test implies LB2's, so its threshold lies above LB2's.
  const double hi = always_feasible(lines, max_entry, switches, delta);
  b.lb3 = smallest_feasible(
      b.lb2, hi, [&](double t) { return lb3_feasible(lines, max_entry, switches, delta, t); });
  return b;
}

}  // namespace

double lower_bound_lb2(const Matrix& time, int switches, double delta) {
  return slot_count_bounds(time, switches, delta).lb2;
}

double lower_bound_lb3(const Matrix& time, int switches, double delta) {
  return slot_count_bounds(time, switches, delta).lb3;
}

MatrixBounds matrix_lower_bounds(const Matrix& time, int switches, double delta) {
  MatrixBounds b = slot_count_bounds(time, switches, delta);
  if (b.lb1 == 0) return b;
  b.lb4 = line_packing_bound(time, switches, delta, b.lb2);
  b.bound = std::max({b.lb1, b.lb2, b.lb4});
  b.all_stop = std::max(b.bound, b.lb3);
  return b;
}

double lower_bound(const Matrix& time, int switches, double delta) {
  return matrix_lower_bounds(time, switches, delta).bound;
}

}  // namespace flux::matrix
