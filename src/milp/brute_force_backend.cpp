// Exhaustive enumeration: every integer point of the box given by the column bounds, in
// lexicographic order, keeping the first best feasible one. Exact on the models it accepts, with no
// solver code in common with CBC, which makes it the reference the backend tests compare against.
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "milp/backend.hpp"

namespace flux::milp {
namespace {

struct Box {
  std::vector<double> lo, hi;
};

// The integer range of every column, or throws std::invalid_argument naming the first column that
// cannot be enumerated (continuous or unbounded) or the size of a box above `max_points`.
Box integer_box(const Model& m, std::int64_t max_points) {
  Box box;
  double points = 1.0;
  for (int j = 0; j < m.columns(); ++j) {
    if (!m.integer[j])
      throw std::invalid_argument(fmt::format(
          "brute-force backend: column {} is continuous (only integer columns)", m.names[j]));
    if (!std::isfinite(m.lower[j]) || !std::isfinite(m.upper[j]))
      throw std::invalid_argument(
          fmt::format("brute-force backend: column {} has an infinite bound", m.names[j]));
    box.lo.push_back(std::ceil(m.lower[j] - 1e-9));
    box.hi.push_back(std::floor(m.upper[j] + 1e-9));
    points *= std::max(0.0, box.hi.back() - box.lo.back() + 1.0);
  }
  if (points > static_cast<double>(max_points))
    throw std::invalid_argument(
        fmt::format("brute-force backend: {:.0f} integer assignments, more than the limit of {}",
                    points, max_points));
  return box;
}

// Moves x to the next point of the box (last column fastest); false after the last one.
bool next_point(const Box& box, std::vector<double>& x) {
  for (std::size_t j = x.size(); j-- > 0;) {
    if (x[j] < box.hi[j]) {
      x[j] += 1.0;
      return true;
    }
    x[j] = box.lo[j];
  }
  return false;
}

bool rows_hold(const Model& m, const std::vector<double>& x) {
  for (const auto& r : m.rows) {
    const double a = m.activity(r, x);
    const double tol = 1e-9 * std::max(1.0, std::abs(a));
    if (a < r.lower - tol || a > r.upper + tol) return false;
  }
  return true;
}

}  // namespace

Result BruteForceBackend::solve(const Model& m, const Limits& /*limits*/,
                                const std::vector<double>& /*warm_start*/) const {
  const auto t0 = std::chrono::steady_clock::now();
  const Box box = integer_box(m, max_assignments_);
  Result out;
  out.backend = name();
  out.status = Status::infeasible;
  bool empty = false;
  for (std::size_t j = 0; j < box.lo.size(); ++j) empty = empty || box.lo[j] > box.hi[j];
  std::vector<double> x = box.lo;
  const double sign = m.sense == Sense::maximize ? -1.0 : 1.0;
  for (bool more = !empty; more; more = next_point(box, x)) {
    if (!rows_hold(m, x)) continue;
    const double value = m.objective(x);
    if (out.values.empty() || sign * value < sign * out.objective) {
      out.values = x;
      out.objective = value;
    }
  }
  if (!out.values.empty()) {
    out.status = Status::optimal;  // every point was seen: the best one is proven
    out.bound = out.objective;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace flux::milp
