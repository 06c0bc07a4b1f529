#include "cosched/setup_chain.hpp"

#include <algorithm>
#include <cmath>
#include <span>

// Validity. Fix a feasible schedule with starts t and valid heads H (H_m ≤ t_m for every task).
// Let v be a task and M a set of σ + 1 messages of one GPU side (duplex: its σ ports; simplex: its
// σ TX or its σ RX ports) on pairwise different circuits, each an ancestor of v or v itself. Each
// uses one of the side's σ ports, so two of them, x and y, share a port. A port holds one circuit
// at a time and a message holds its port during [t_m, t_m + p_m] (an instant if p_m = 0), and
// re-pointing a port takes τ during which it holds nothing: if x runs first, t_y ≥ t_x + p_x + τ.
//  * x, y both ≠ v: both are ancestors of v, so v starts after both end:
//    t_v ≥ t_y + p_y ≥ max(t_y, t_x + p_x + τ) + p_y ≥ max(H_y, H_x + p_x + τ) + p_y. The order is
//    not known, so take the smaller of the two orders (pair_end).
//  * y = v: x is an ancestor of v, so x runs first: t_v ≥ t_x + p_x + τ ≥ H_x + p_x + τ.
// The pair is not known either: t_v ≥ the minimum of these over M's pairs. Both expressions are
// non-decreasing in every H, so valid heads suffice; computed in topological order from the
// final heads of v's ancestors, H_v = max(the other head bounds, this) is again a valid head, and
// the raises accumulate along the DAG. Tails: reversing time turns a feasible schedule into a
// feasible schedule of the reversed DAG (a set-up still separates two holding periods of different
// circuits on a port), in which tails are heads and descendants are ancestors; the same argument
// over v's descendants with valid tails Q gives C − t_v − p_v ≥ the same minimum with Q for H.
// Any choice of M is valid; `visit` picks, per side, the σ + 1 latest-ending recorded ancestors.
//
// What it charges on a pipeline hop y (g → g') when g's and g''s σ = 2 ports hold their TP ring
// circuits: heads — y with the last ring messages of g on its two ring circuits: y starts τ after
// one of them ends (sender side); tails, or the heads of the next ring step of g' with y and the
// ring messages of g' that follow y: one of them starts τ after y ends (receiver side). So both
// set-ups of a hop can reach one head, hop after hop.

namespace flux::cosched {

SetupChains::SetupChains(const CoschedInstance& inst, bool forward)
    : inst_(inst), forward_(forward), keep_(inst.fabric.ocs + 1) {
  const std::size_t n = inst.workload.tasks.size();
  first_.resize(n + 1);
  first_[0] = 0;
  for (std::size_t v = 0; v < n; ++v)
    first_[v + 1] = first_[v] + static_cast<long long>(sides_of(static_cast<int>(v)).count) * keep_;
  companion_.assign(static_cast<std::size_t>(first_[n]), -1);
}

// The GPU sides a task can have companions at: its GPU's (a compute task), or both endpoints'.
SetupChains::Sides SetupChains::sides_of(int v) const {
  const workload::Task& t = inst_.workload.tasks[v];
  const int gpus = inst_.fabric.gpus;
  const bool duplex = inst_.fabric.circuit == fabric::CircuitKind::duplex;
  Sides out{};
  auto add_gpu = [&](int g) {
    out.side[out.count++] = g;
    if (!duplex) out.side[out.count++] = gpus + g;  // its RX ports
  };
  if (inst_.message_of[v] < 0) {
    add_gpu(t.gpu);
  } else {
    add_gpu(t.src);
    add_gpu(t.dst);
  }
  return out;
}

int SetupChains::partner(int m, int side) const {
  if (inst_.message_of[m] < 0) return -1;
  const workload::Task& t = inst_.workload.tasks[m];
  if (inst_.fabric.circuit == fabric::CircuitKind::duplex)
    return side == t.src ? t.dst : side == t.dst ? t.src : -1;
  const int gpus = inst_.fabric.gpus;
  return side == t.src ? t.dst : side == gpus + t.dst ? t.src : -1;
}

double SetupChains::bound_at(int v, int side, const std::vector<int>& picked,
                             const std::vector<double>& time) const {
  const double tau = inst_.fabric.reconfig_delay;
  const std::vector<double>& p = inst_.duration;
  auto pair_end = [&](int x, int y) {
    auto then = [&](int a, int b) { return std::max(time[b], time[a] + p[a] + tau) + p[b]; };
    return std::min(then(x, y), then(y, x));
  };
  auto min_over_pairs = [&](std::span<const int> set) {
    double value = INFINITY;
    for (std::size_t i = 0; i < set.size(); ++i)
      for (std::size_t j = i + 1; j < set.size(); ++j)
        value = std::min(value, pair_end(set[i], set[j]));
    return value;
  };
  double best = 0.0;
  if (static_cast<int>(picked.size()) == keep_) best = min_over_pairs(picked);
  const int own = partner(v, side);
  if (own < 0) return best;
  // v itself as the (σ + 1)-th: the σ latest companions on circuits other than v's.
  std::vector<int> others;
  for (int m : picked)
    if (partner(m, side) != own && static_cast<int>(others.size()) < keep_ - 1) others.push_back(m);
  if (static_cast<int>(others.size()) < keep_ - 1) return best;
  double value = min_over_pairs(others);
  for (int m : others) value = std::min(value, time[m] + p[m] + tau);
  return std::max(best, value);
}

double SetupChains::visit(int v, const std::vector<double>& time) {
  const std::span<const int> around =
      forward_ ? std::span<const int>(inst_.workload.tasks[v].after) : inst_.succ[v];
  const Sides mine = sides_of(v);
  double best = 0.0;
  for (int k = 0; k < mine.count; ++k) {
    const int side = mine.side[k];
    // Candidates: the neighbours that are messages at this side, and their companions there.
    candidates_.clear();
    for (int u : around) {
      if (partner(u, side) >= 0) candidates_.push_back(u);
      const Sides theirs = sides_of(u);
      for (int j = 0; j < theirs.count; ++j) {
        if (theirs.side[j] != side) continue;
        const long long at = first_[u] + static_cast<long long>(j) * keep_;
        for (int i = 0; i < keep_ && companion_[at + i] >= 0; ++i)
          candidates_.push_back(companion_[at + i]);
      }
    }
    // The latest-ending one per circuit, then the σ + 1 latest circuits (ties: lower index).
    std::sort(candidates_.begin(), candidates_.end(), [&](int x, int y) {
      const double ex = time[x] + inst_.duration[x], ey = time[y] + inst_.duration[y];
      return ex != ey ? ex > ey : x < y;
    });
    picked_.clear();
    for (int m : candidates_) {
      if (static_cast<int>(picked_.size()) == keep_) break;
      const int c = partner(m, side);
      if (std::none_of(picked_.begin(), picked_.end(),
                       [&](int x) { return partner(x, side) == c; }))
        picked_.push_back(m);
    }
    const long long at = first_[v] + static_cast<long long>(k) * keep_;
    std::copy(picked_.begin(), picked_.end(), companion_.begin() + at);
    best = std::max(best, bound_at(v, side, picked_, time));
  }
  return best;
}

}  // namespace flux::cosched
