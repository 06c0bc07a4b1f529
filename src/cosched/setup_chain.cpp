#include "cosched/setup_chain.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "cosched/port_pair.hpp"

// Validity. Fix a feasible schedule with starts t and valid heads H (H_m ≤ t_m for every task).
// Let v be a task and M a set of σ + 1 messages of one GPU side (duplex: its σ ports; simplex: its
// σ TX or its σ RX ports) on pairwise different circuits, each an ancestor of v or v itself. Each
// uses one of the side's σ ports, so two of them, x and y, share a port. A port holds one circuit
// at a time and a message holds its port during [t_m, t_m + p_m] (an instant if p_m = 0), and
// re-pointing a port takes τ during which it holds nothing: if x runs first, t_y ≥ t_x + p_x + τ.
//  * x, y both ≠ v: both are ancestors of v, so v starts after y ends and a path of length at
//    least L_y (y's lag: any DAG path from y to v, summing the durations on it) runs between:
//    t_v ≥ t_y + p_y + L_y ≥ max(H_y, H_x + p_x + τ) + p_y + L_y. The order is not known, so take
//    the smaller of the two orders (pair_end). Lags: L_m = 0 when m is a predecessor of v, else
//    L_m(v) ≥ L_m(u) + p_u for a predecessor u of v that has m as an ancestor.
//  * y = v: x is an ancestor of v, so x runs first: t_v ≥ t_x + p_x + τ ≥ H_x + p_x + τ.
// The pair is not known either: t_v ≥ the minimum of these over M's pairs. Both expressions are
// non-decreasing in every H, so valid heads suffice; computed in topological order from the
// final heads of v's ancestors, H_v = max(the other head bounds, this) is again a valid head, and
// the raises accumulate along the DAG. Tails: reversing time turns a feasible schedule into a
// feasible schedule of the reversed DAG (a set-up still separates two holding periods of different
// circuits on a port), in which tails are heads and descendants are ancestors; the same argument
// over v's descendants with valid tails Q gives C − t_v − p_v ≥ the same minimum with Q for H.
// The side need not be v's: nothing above uses where v runs. Any choice of M is valid; `visit`
// picks, per side, the σ + 1 recorded ancestors with the latest end + lag.
//
// What it charges on a pipeline hop y (g → g') when g's σ = 2 ports hold its TP ring circuits:
// g's last ring receive r is an ancestor of y, its last ring send s is not (it feeds the next
// rank's reduce). Both s and y reach the next stage's ring (through the next rank's hop and
// through g'), where a task has r, s and y as ancestors at g's side: whichever pair shares a
// port, one of them is τ late and so is that task. The receiver side is the same at g'.

namespace flux::cosched {

SetupChains::SetupChains(const CoschedInstance& inst, bool forward, int foreign)
    : inst_(inst),
      forward_(forward),
      keep_(inst.fabric.ocs + 1),
      foreign_(foreign),
      list_of_(inst.workload.tasks.size(), -1),
      waiting_(inst.workload.tasks.size()) {
  for (std::size_t v = 0; v < waiting_.size(); ++v)
    waiting_[v] =
        static_cast<int>(forward ? inst.succ[v].size() : inst.workload.tasks[v].after.size());
}

// The GPU sides of a task: its GPU's (a compute task), or both endpoints'.
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

// `picked`: one side's companions, latest end + lag first, on distinct circuits.
double SetupChains::bound_at(int v, std::span<const Companion> picked,
                             const std::vector<double>& time) {
  const double tau = inst_.fabric.reconfig_delay;
  const std::vector<double>& p = inst_.duration;
  auto pair_end = [&](const Companion& x, const Companion& y) {
    auto then = [&](const Companion& a, const Companion& b) {
      return end_after_port_change(time[a.task], p[a.task], time[b.task], p[b.task], b.lag, tau);
    };
    return std::min(then(x, y), then(y, x));
  };
  auto min_over_pairs = [&](std::span<const Companion> set) {
    double value = INFINITY;
    for (std::size_t i = 0; i < set.size(); ++i)
      for (std::size_t j = i + 1; j < set.size(); ++j)
        value = std::min(value, pair_end(set[i], set[j]));
    return value;
  };
  double best = 0.0;
  if (static_cast<int>(picked.size()) == keep_) best = min_over_pairs(picked);
  const int side = picked.front().side, own = partner(v, side);
  if (own < 0) return best;
  // v itself as the (σ + 1)-th: the σ latest companions on circuits other than v's.
  others_.clear();
  for (const Companion& c : picked)
    if (partner(c.task, side) != own && static_cast<int>(others_.size()) < keep_ - 1)
      others_.push_back(c);
  if (static_cast<int>(others_.size()) < keep_ - 1) return best;
  double value = min_over_pairs(others_);
  for (const Companion& c : others_) value = std::min(value, time[c.task] + p[c.task] + tau);
  return std::max(best, value);
}

// kept_ = v's companions: per side, the σ + 1 latest (end + lag) on distinct circuits among its
// neighbours that are messages there and their own companions; v's own sides and the `foreign_`
// other sides with the latest companion.
void SetupChains::gather(int v, const std::vector<double>& time) {
  const std::span<const int> around =
      forward_ ? std::span<const int>(inst_.workload.tasks[v].after) : inst_.succ[v];
  const std::vector<double>& p = inst_.duration;
  // Each candidate's circuit and end are read once here, not at every comparison of the sorts
  // (each a look at a task record somewhere in the workload).
  candidates_.clear();
  const auto add = [&](const Companion& c, int circuit) {
    candidates_.push_back({c, circuit, time[c.task] + p[c.task] + c.lag});
  };
  for (int u : around) {
    const Sides theirs = sides_of(u);
    for (int j = 0; j < theirs.count; ++j)
      if (const int circuit = partner(u, theirs.side[j]); circuit >= 0)
        add({theirs.side[j], u, 0.0}, circuit);
    if (list_of_[u] >= 0)
      for (const Companion& c : lists_[list_of_[u]])
        add({c.side, c.task, c.lag + p[u]}, partner(c.task, c.side));
    if (--waiting_[u] == 0) release_list(u);
  }
  auto later = [](const Candidate& x, const Candidate& y) {
    return x.end != y.end ? x.end > y.end : x.companion.task < y.companion.task;
  };
  // The latest per (side, circuit), then per side the σ + 1 latest circuits.
  std::sort(candidates_.begin(), candidates_.end(), [&](const Candidate& x, const Candidate& y) {
    if (x.companion.side != y.companion.side) return x.companion.side < y.companion.side;
    return x.circuit != y.circuit ? x.circuit < y.circuit : later(x, y);
  });
  auto same_circuit = [](const Candidate& x, const Candidate& y) {
    return x.companion.side == y.companion.side && x.circuit == y.circuit;
  };
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end(), same_circuit),
                    candidates_.end());
  std::sort(candidates_.begin(), candidates_.end(), [&](const Candidate& x, const Candidate& y) {
    return x.companion.side != y.companion.side ? x.companion.side < y.companion.side : later(x, y);
  });
  // Sides by their latest companion; own sides first.
  const Sides mine = sides_of(v);
  auto is_mine = [&](int side) {
    return std::find(mine.side, mine.side + mine.count, side) != mine.side + mine.count;
  };
  groups_.clear();
  for (std::size_t i = 0; i < candidates_.size();) {
    const int side = candidates_[i].companion.side;
    std::size_t j = i;
    while (j < candidates_.size() && candidates_[j].companion.side == side) ++j;
    groups_.push_back({i, std::min<std::size_t>(j - i, keep_), is_mine(side), candidates_[i].end});
    i = j;
  }
  std::sort(groups_.begin(), groups_.end(), [](const Group& x, const Group& y) {
    return x.mine != y.mine ? x.mine : x.latest > y.latest;
  });
  kept_.clear();
  int foreign = 0;
  for (const Group& g : groups_) {
    if (!g.mine && foreign++ >= foreign_) break;
    for (std::size_t i = g.begin; i < g.begin + g.size; ++i)
      kept_.push_back(candidates_[i].companion);
  }
}

double SetupChains::visit(int v, const std::vector<double>& time) {
  gather(v, time);
  double best = 0.0;
  for (std::size_t i = 0; i < kept_.size();) {
    std::size_t j = i;
    while (j < kept_.size() && kept_[j].side == kept_[i].side) ++j;
    best = std::max(best, bound_at(v, {kept_.data() + i, j - i}, time));
    i = j;
  }
  if (waiting_[v] > 0) keep_list(v);
  return best;
}

void SetupChains::keep_list(int v) {
  if (free_lists_.empty()) {
    free_lists_.push_back(static_cast<int>(lists_.size()));
    lists_.emplace_back();
  }
  list_of_[v] = free_lists_.back();
  free_lists_.pop_back();
  lists_[list_of_[v]] = kept_;
}

void SetupChains::release_list(int u) {
  if (list_of_[u] < 0) return;
  std::vector<Companion>().swap(lists_[list_of_[u]]);  // memory follows the frontier
  free_lists_.push_back(list_of_[u]);
  list_of_[u] = -1;
}

}  // namespace flux::cosched
