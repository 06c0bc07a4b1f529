#include "spectra/wraparound.hpp"

#include <numeric>
#include <optional>

namespace flux {
namespace {

std::optional<SwitchPlan> fill(const std::vector<double>& w, const std::vector<int>& order, int s,
                               double delta, double t) {
  SwitchPlan plan;
  plan.pieces.resize(static_cast<std::size_t>(s));
  plan.load.assign(static_cast<std::size_t>(s), 0.0);
  const double eps = 1e-12 * t;  // never open a slot that could carry nothing
  int m = 0;
  for (int l : order) {
    double rest = w[static_cast<std::size_t>(l)];
    if (rest <= 0.0) continue;
    bool cut = false;
    while (rest > 0.0) {
      if (m >= s) return std::nullopt;
      double& load = plan.load[static_cast<std::size_t>(m)];
      const double room = t - load - delta;
      if (room <= eps) {
        ++m;
        continue;
      }
      const double piece = room >= rest ? rest : room;
      plan.pieces[static_cast<std::size_t>(m)].push_back({l, piece});
      load += delta + piece;
      rest = piece == rest ? 0.0 : rest - piece;
      if (rest > 0.0) ++m;
      plan.splits += cut ? 1 : 0;
      cut = true;
    }
  }
  return plan;
}

}  // namespace

SwitchPlan wraparound_plan(const std::vector<double>& weights, const std::vector<int>& order,
                           int switches, double delta) {
  const double work = std::accumulate(weights.begin(), weights.end(), 0.0) +
                      delta * static_cast<double>(weights.size());
  double lo = work / switches, hi = work;
  std::optional<SwitchPlan> best = fill(weights, order, 1, delta, hi * (1 + 1e-9));
  if (!best) return lpt_assign(weights, switches, delta);  // unreachable: one switch holds all
  best->load.resize(static_cast<std::size_t>(switches), 0.0);
  best->pieces.resize(static_cast<std::size_t>(switches));
  for (int iter = 0; iter < 100 && hi - lo > 1e-12 * hi; ++iter) {
    const double mid = 0.5 * (lo + hi);
    if (auto plan = fill(weights, order, switches, delta, mid)) {
      best = std::move(plan);
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return std::move(*best);
}

}  // namespace flux
