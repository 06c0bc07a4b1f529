#include "spectra/wraparound.hpp"

#include <numeric>

namespace flux::spectra {
namespace {

// Fills switches up to t in `order`; records the pieces only when `plan` is given (the
// bisection tests feasibility without allocating).
bool fill(const std::vector<double>& w, const std::vector<int>& order, int s, double delta,
          double t, matrix::SwitchPlan* plan) {
  if (plan) {
    plan->pieces.assign(static_cast<std::size_t>(s), {});
    plan->load.assign(static_cast<std::size_t>(s), 0.0);
    plan->splits = 0;
  }
  const double eps = 1e-12 * t;  // never open a slot that could carry nothing
  int m = 0;
  double load = 0.0;  // of switch m
  for (int l : order) {
    double rest = w[static_cast<std::size_t>(l)];
    for (bool cut = false; rest > 0.0; cut = true) {
      while (m < s && t - load - delta <= eps) ++m, load = 0.0;
      if (m >= s) return false;
      const double room = t - load - delta;
      const double piece = room >= rest ? rest : room;
      load += delta + piece;
      rest = piece == rest ? 0.0 : rest - piece;
      if (plan) {
        plan->pieces[static_cast<std::size_t>(m)].push_back({l, piece});
        plan->load[static_cast<std::size_t>(m)] = load;
        plan->splits += cut ? 1 : 0;
      }
      if (rest > 0.0) ++m, load = 0.0;
    }
  }
  return true;
}

}  // namespace

matrix::SwitchPlan wraparound_plan(const std::vector<double>& weights,
                                   const std::vector<int>& order, int switches, double delta) {
  const double work = std::accumulate(weights.begin(), weights.end(), 0.0) +
                      delta * static_cast<double>(weights.size());
  double lo = work / switches, hi = work * (1 + 1e-9);  // one switch holds everything at hi
  for (int iter = 0; iter < 100 && hi - lo > 1e-12 * hi; ++iter) {
    const double mid = 0.5 * (lo + hi);
    (fill(weights, order, switches, delta, mid, nullptr) ? hi : lo) = mid;
  }
  matrix::SwitchPlan plan;
  if (!fill(weights, order, switches, delta, hi, &plan))
    return matrix::lpt_assign(weights, switches, delta);
  return plan;
}

}  // namespace flux::spectra
