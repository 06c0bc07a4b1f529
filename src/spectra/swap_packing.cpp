#include "spectra/swap_packing.hpp"

#include <algorithm>

namespace flux::spectra {
namespace {

// A step must lower the busiest switch by more than this (relative): round-off cannot loop.
constexpr double kMinGain = 1e-12;

struct Step {
  int to = -1;              // the other switch
  int out = -1, in = -1;    // piece index leaving the busiest switch; entering it (or -1)
  double busy_after = 0.0;  // the larger of the two loads after the step
};

// The best move or swap between the busiest switch `m` and the others.
Step best_step(const matrix::SwitchPlan& plan, int m, double delta) {
  const auto& busy = plan.pieces[static_cast<std::size_t>(m)];
  const double top = plan.load[static_cast<std::size_t>(m)];
  Step best;
  best.busy_after = top * (1 - kMinGain);
  for (int b = 0; b < static_cast<int>(plan.pieces.size()); ++b) {
    if (b == m) continue;
    const auto& other = plan.pieces[static_cast<std::size_t>(b)];
    const double lb = plan.load[static_cast<std::size_t>(b)];
    for (int x = 0; x < static_cast<int>(busy.size()); ++x) {
      const double wx = busy[static_cast<std::size_t>(x)].duration;
      const double moved = std::max(top - wx - delta, lb + wx + delta);
      if (moved < best.busy_after) best = {b, x, -1, moved};
      for (int y = 0; y < static_cast<int>(other.size()); ++y) {
        const double wy = other[static_cast<std::size_t>(y)].duration;
        if (wy >= wx) continue;
        const double swapped = std::max(top - wx + wy, lb + wx - wy);
        if (swapped < best.busy_after) best = {b, x, y, swapped};
      }
    }
  }
  return best;
}

void apply(matrix::SwitchPlan& plan, int m, const Step& s, double delta) {
  auto& busy = plan.pieces[static_cast<std::size_t>(m)];
  auto& other = plan.pieces[static_cast<std::size_t>(s.to)];
  const matrix::Piece out = busy[static_cast<std::size_t>(s.out)];
  busy.erase(busy.begin() + s.out);
  plan.load[static_cast<std::size_t>(m)] -= out.duration + delta;
  plan.load[static_cast<std::size_t>(s.to)] += out.duration + delta;
  if (s.in >= 0) {
    const matrix::Piece in = other[static_cast<std::size_t>(s.in)];
    other.erase(other.begin() + s.in);
    busy.push_back(in);
    plan.load[static_cast<std::size_t>(m)] += in.duration + delta;
    plan.load[static_cast<std::size_t>(s.to)] -= in.duration + delta;
  }
  other.push_back(out);
}

}  // namespace

matrix::SwitchPlan swap_packed_assign(const std::vector<double>& weights, int switches,
                                      double delta) {
  matrix::SwitchPlan plan = matrix::lpt_assign(weights, switches, delta);
  const std::size_t limit = 8 * (static_cast<std::size_t>(switches) + weights.size());
  for (std::size_t step = 0; step < limit; ++step) {
    const int m =
        static_cast<int>(std::max_element(plan.load.begin(), plan.load.end()) - plan.load.begin());
    const Step s = best_step(plan, m, delta);
    if (s.to < 0) break;
    apply(plan, m, s, delta);
  }
  return plan;
}

}  // namespace flux::spectra
