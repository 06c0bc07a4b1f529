#include "cosched/phase_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "cosched/port_book.hpp"
#include "spectra/decompose.hpp"

namespace flux::cosched {
namespace {

bool duplex(const fabric::Fabric& f) {
  return f.circuit == fabric::CircuitKind::duplex;
}

// The circuit a message needs, as an ordered pair: (low, high) on duplex, (src, dst) on simplex.
std::pair<int, int> circuit_of(const fabric::Fabric& f, const workload::Task& t) {
  if (duplex(f)) return {std::min(t.src, t.dst), std::max(t.src, t.dst)};
  return {t.src, t.dst};
}

// Messages grouped into phases: one per collective tag, one per untagged send; ids in order of
// first appearance, so the grouping is deterministic.
std::vector<std::vector<int>> group_phases(const CoschedInstance& inst) {
  std::vector<std::vector<int>> phases;
  std::unordered_map<std::int64_t, int> of_tag;
  for (int m = 0; m < inst.message_count(); ++m) {
    const std::int64_t tag = inst.message_task(m).collective;
    if (tag < 0) {
      phases.push_back({m});
      continue;
    }
    const auto [it, fresh] = of_tag.emplace(tag, static_cast<int>(phases.size()));
    if (fresh) phases.emplace_back();
    phases[it->second].push_back(m);
  }
  return phases;
}

// partner[g]: the GPU whose circuit with g is pinned, -1 for none. Each GPU's busiest partner (by
// messages, ties to the lower GPU), kept where the choice is mutual.
std::vector<int> dedicated_partners(const CoschedInstance& inst) {
  const int n = inst.fabric.gpus;
  std::unordered_map<long long, int> count;
  for (int m = 0; m < inst.message_count(); ++m) {
    const workload::Task& t = inst.message_task(m);
    ++count[static_cast<long long>(std::min(t.src, t.dst)) * n + std::max(t.src, t.dst)];
  }
  std::vector<int> best(n, -1), most(n, 0);
  for (const auto& [key, c] : count) {
    const int a = static_cast<int>(key / n), b = static_cast<int>(key % n);
    for (const auto& [g, h] : {std::pair{a, b}, std::pair{b, a}})
      if (c > most[g] || (c == most[g] && h < best[g])) most[g] = c, best[g] = h;
  }
  std::vector<int> partner(n, -1);
  for (int g = 0; g < n; ++g)
    if (best[g] >= 0 && best[best[g]] == g) partner[g] = best[g];
  return partner;
}

struct Circuit {
  int a = 0, b = 0;  // GPUs (see circuit_of)
  double weight = 0.0;
  double ready = INFINITY;  // estimate: when its first message is ready
  std::vector<int> messages;
};

// A phase's circuits and their demand among its GPUs (local indices `local`).
struct PhaseDemand {
  std::vector<Circuit> circuits;
  std::vector<int> gpus;  // local index -> GPU
};

// `split` ≥ 0: a circuit's messages ready more than split·τ after its first one form a second
// unit with its own round (see PhasePlanOptions::split_late).
PhaseDemand phase_demand(const CoschedInstance& inst, const std::vector<int>& messages,
                         const std::vector<double>& ready, double split) {
  PhaseDemand d;
  std::map<std::pair<int, int>, double> first;
  for (int m : messages) {
    const auto key = circuit_of(inst.fabric, inst.message_task(m));
    const auto [it, fresh] = first.emplace(key, ready[m]);
    if (!fresh) it->second = std::min(it->second, ready[m]);
  }
  std::map<std::tuple<int, int, int>, int> index;
  for (int m : messages) {
    const workload::Task& t = inst.message_task(m);
    const auto pair = circuit_of(inst.fabric, t);
    const int late = split >= 0.0 && ready[m] > first[pair] + split * inst.fabric.reconfig_delay;
    const auto key = std::tuple{pair.first, pair.second, late};
    const auto [it, fresh] = index.emplace(key, static_cast<int>(d.circuits.size()));
    if (fresh) d.circuits.push_back({pair.first, pair.second, 0.0, INFINITY, {}});
    d.circuits[it->second].messages.push_back(m);
    d.circuits[it->second].ready = std::min(d.circuits[it->second].ready, ready[m]);
    d.gpus.push_back(t.src);
    d.gpus.push_back(t.dst);
  }
  std::sort(d.gpus.begin(), d.gpus.end());
  d.gpus.erase(std::unique(d.gpus.begin(), d.gpus.end()), d.gpus.end());
  // A circuit's weight: the busier of its directions (duplex carries both at once).
  for (Circuit& c : d.circuits) {
    double forward = 0.0, backward = 0.0;
    for (int m : c.messages)
      (inst.message_task(m).src == c.a ? forward : backward) += inst.duration[inst.messages[m]];
    c.weight = std::max(forward, backward);
  }
  return d;
}

using Round = std::vector<int>;  // circuit indices of one phase, pairwise port-disjoint

// Duplex rounds: matchings peeled greedily, circuits that are ready first, then those at the GPUs
// with the most remaining circuits (then the heaviest), so a complete graph on an even number of
// GPUs that are ready together comes out as near-perfect matchings.
std::vector<Round> matching_rounds(const PhaseDemand& d) {
  const int nc = static_cast<int>(d.circuits.size());
  int top = 0;
  for (const Circuit& c : d.circuits) top = std::max({top, c.a, c.b});
  std::vector<int> degree(top + 1, 0);
  for (const Circuit& c : d.circuits) ++degree[c.a], ++degree[c.b];
  // Each round sorts the remaining circuits by a key computed once per circuit (it is the
  // plan's hot spot: every pass peels every phase).
  using Key = std::tuple<double, int, int, double>;
  std::vector<Key> key(nc);
  std::vector<int> left(nc);
  std::iota(left.begin(), left.end(), 0);
  std::vector<int> partner(top + 1, -1);  // GPU -> the GPU its port points at in this round
  std::vector<Round> rounds;
  while (!left.empty()) {
    for (int c : left) {
      const Circuit& k = d.circuits[c];
      key[c] = {-k.ready, std::max(degree[k.a], degree[k.b]), std::min(degree[k.a], degree[k.b]),
                k.weight};
    }
    std::stable_sort(left.begin(), left.end(), [&](int x, int y) { return key[x] > key[y]; });
    const auto fits = [&](int g, int h) { return partner[g] < 0 || partner[g] == h; };
    Round round;
    std::vector<int> rest;
    for (int c : left) {
      const Circuit& k = d.circuits[c];
      if (!fits(k.a, k.b) || !fits(k.b, k.a)) {
        rest.push_back(c);
        continue;
      }
      partner[k.a] = k.b;
      partner[k.b] = k.a;
      round.push_back(c);
    }
    for (int c : round) {
      const Circuit& k = d.circuits[c];
      --degree[k.a], --degree[k.b];
      partner[k.a] = partner[k.b] = -1;
    }
    // The remaining circuits in index order, as the stable sort of the next round expects.
    std::sort(rest.begin(), rest.end());
    left = std::move(rest);
    rounds.push_back(std::move(round));
  }
  return rounds;
}

// Simplex rounds: DECOMPOSE of the phase's demand matrix; each circuit goes to the first
// permutation that covers it (a permutation is one configuration of TX and RX ports). Circuits
// no permutation covers (zero demand) form one more round each.
std::vector<Round> permutation_rounds(const PhaseDemand& d) {
  const int n = static_cast<int>(d.gpus.size());
  const auto local = [&](int g) {
    return static_cast<int>(std::lower_bound(d.gpus.begin(), d.gpus.end(), g) - d.gpus.begin());
  };
  Matrix demand(n);
  std::map<std::pair<int, int>, int> circuit_at;  // (local src, local dst) -> circuit
  for (int c = 0; c < static_cast<int>(d.circuits.size()); ++c) {
    const int a = local(d.circuits[c].a), b = local(d.circuits[c].b);
    demand(a, b) = d.circuits[c].weight;
    circuit_at[{a, b}] = c;
  }
  std::vector<char> taken(d.circuits.size(), 0);
  std::vector<Round> rounds;
  for (const matrix::Permutation& perm : spectra::spectra_decompose(demand).perms) {
    Round round;
    for (int i = 0; i < n; ++i) {
      const auto it = circuit_at.find({i, perm[i]});
      if (it == circuit_at.end() || taken[it->second]) continue;
      taken[it->second] = 1;
      round.push_back(it->second);
    }
    if (!round.empty()) rounds.push_back(std::move(round));
  }
  for (int c = 0; c < static_cast<int>(d.circuits.size()); ++c)
    if (!taken[c]) rounds.push_back({c});
  return rounds;
}

std::vector<Round> phase_rounds(const PhaseDemand& d, bool is_duplex) {
  if (d.circuits.size() == 1) return {{0}};
  return is_duplex ? matching_rounds(d) : permutation_rounds(d);
}

// Running account of every OCS port while rounds are assigned: busy until, current partner.
class PortAccount {
 public:
  explicit PortAccount(const fabric::Fabric& f)
      : f_(f),
        busy_(static_cast<std::size_t>(ports_per_switch(f)) * f.ocs, 0.0),
        partner_(busy_.size(), -1) {}

  // When the round's circuits could all be up on OCS `sw`.
  [[nodiscard]] double start(int sw, const PhaseDemand& d, const Round& round) const {
    double at = 0.0;
    for (int c : round)
      for (int end = 0; end < 2; ++end) {
        const PortUse u = port_use(f_, sw, d.circuits[c].a, d.circuits[c].b, end);
        const bool held = partner_[u.port] == u.partner;
        const bool free_first = partner_[u.port] < 0 && f_.initial_config_free;
        at = std::max(at, busy_[u.port] + (held || free_first ? 0.0 : f_.reconfig_delay));
      }
    return at;
  }
  void take(int sw, const PhaseDemand& d, const Round& round, double at) {
    for (int c : round)
      for (int end = 0; end < 2; ++end) {
        const PortUse u = port_use(f_, sw, d.circuits[c].a, d.circuits[c].b, end);
        busy_[u.port] = at + d.circuits[c].weight;
        partner_[u.port] = u.partner;
      }
  }

 private:
  fabric::Fabric f_;
  std::vector<double> busy_;
  std::vector<int> partner_;
};

struct Plan {
  std::vector<int> switch_of, slot;  // per message
  std::vector<double> round_ready;   // per message: its round's latest circuit ready
};

// OCS and round of every message (see the header, steps 2–4).
Plan make_plan(const CoschedInstance& inst, const std::vector<std::vector<int>>& phases,
               const std::vector<int>& pinned, const std::vector<double>& ready, double split) {
  const fabric::Fabric& f = inst.fabric;
  const int nm = inst.message_count(), last = f.ocs - 1;
  const bool pins = !pinned.empty() && f.ocs >= 2;
  Plan plan{std::vector<int>(nm, 0), std::vector<int>(nm, 0), ready};
  std::vector<double> release(phases.size(), INFINITY);
  for (std::size_t p = 0; p < phases.size(); ++p)
    for (int m : phases[p]) release[p] = std::min(release[p], ready[m]);
  std::vector<int> by_release(phases.size());
  std::iota(by_release.begin(), by_release.end(), 0);
  std::stable_sort(by_release.begin(), by_release.end(),
                   [&](int x, int y) { return release[x] < release[y]; });
  PortAccount account(f);
  for (int p : by_release) {
    std::vector<int> free;
    for (int m : phases[p]) {
      const workload::Task& t = inst.message_task(m);
      if (pins && pinned[t.src] == t.dst)
        plan.switch_of[m] = last;
      else
        free.push_back(m);
    }
    if (free.empty()) continue;
    const PhaseDemand d = phase_demand(inst, free, ready, split);
    const bool uses_pinned_port =
        pins && std::any_of(d.gpus.begin(), d.gpus.end(), [&](int g) { return pinned[g] >= 0; });
    const int ocs = uses_pinned_port ? last : f.ocs;
    const std::vector<Round> rounds = phase_rounds(d, duplex(f));
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      int best = 0;
      double best_end = INFINITY;
      double weight = 0.0, round_ready = 0.0;
      for (int c : rounds[r]) {
        weight = std::max(weight, d.circuits[c].weight);
        round_ready = std::max(round_ready, d.circuits[c].ready);
      }
      for (int s = 0; s < ocs; ++s) {
        const double end = std::max(round_ready, account.start(s, d, rounds[r])) + weight;
        if (end < best_end) best = s, best_end = end;
      }
      account.take(best, d, rounds[r], best_end - weight);
      for (int c : rounds[r])
        for (int m : d.circuits[c].messages) {
          plan.switch_of[m] = best;
          plan.slot[m] = static_cast<int>(r);
          plan.round_ready[m] = round_ready;
        }
    }
  }
  return plan;
}

// A linear extension of the DAG on the messages: among the messages whose predecessors are all
// listed, the one with the smallest (round ready, round, topological position). Keyed by its own
// round's ready time, not by the phase's release: an all-to-all whose GPUs finish computing at
// different times then plays its early rounds without waiting for the late ones.
std::vector<int> plan_order(const CoschedInstance& inst, const Plan& plan) {
  const auto& tasks = inst.workload.tasks;
  const int n = static_cast<int>(tasks.size());
  std::vector<int> topo_pos(n), missing(n), computes, order;
  for (int k = 0; k < n; ++k) topo_pos[inst.topo[k]] = k;
  using Key = std::tuple<double, int, int>;  // round ready, slot, topological position
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  const auto enqueue = [&](int v) {
    const int m = inst.message_of[v];
    if (m < 0)
      computes.push_back(v);
    else
      ready.emplace(plan.round_ready[m], plan.slot[m], topo_pos[v]);
  };
  for (int v = 0; v < n; ++v) {
    missing[v] = static_cast<int>(tasks[v].after.size());
    if (missing[v] == 0) enqueue(v);
  }
  const auto done = [&](int v) {
    for (int s : inst.succ[v])
      if (--missing[s] == 0) enqueue(s);
  };
  for (;;) {
    while (!computes.empty()) {
      const int v = computes.back();
      computes.pop_back();
      done(v);
    }
    if (ready.empty()) break;
    const int v = inst.topo[std::get<2>(ready.top())];
    ready.pop();
    order.push_back(inst.message_of[v]);
    done(v);
  }
  return order;
}

// When every message is ready (its predecessors done) in the list schedule `list` ran.
std::vector<double> ready_times(const CoschedInstance& inst, const ListScheduler& list) {
  std::vector<double> ready(inst.message_count(), 0.0);
  const auto& start = list.task_start();
  for (int m = 0; m < inst.message_count(); ++m)
    for (int p : inst.workload.tasks[inst.messages[m]].after)
      ready[m] = std::max(ready[m], start[p] + inst.duration[p]);
  return ready;
}

}  // namespace

bool many_to_many(const CoschedInstance& inst) {
  std::vector<std::vector<int>> partners(inst.fabric.gpus);
  for (const std::vector<int>& phase : group_phases(inst)) {
    const long most = std::max(inst.fabric.ocs, 2);
    if (static_cast<long>(phase.size()) <= most) continue;
    for (auto& p : partners) p.clear();
    for (int m : phase) {
      const workload::Task& t = inst.message_task(m);
      partners[t.src].push_back(t.dst);
      partners[t.dst].push_back(t.src);
    }
    for (auto& p : partners) {
      std::sort(p.begin(), p.end());
      if (std::unique(p.begin(), p.end()) - p.begin() > most) return true;
    }
  }
  return false;
}

int budget_passes(const CoschedInstance& inst) {
  constexpr double task_budget = 3e5;
  const double tasks = std::max<double>(1.0, static_cast<double>(inst.workload.tasks.size()));
  return static_cast<int>(std::clamp(std::floor(task_budget / tasks), 3.0, 40.0));
}

std::vector<Placement> phase_plan(const CoschedInstance& inst, const PhasePlanOptions& options) {
  const auto phases = group_phases(inst);
  const std::vector<int> pinned = options.dedicate ? dedicated_partners(inst) : std::vector<int>{};
  std::vector<double> ready(inst.message_count());
  for (int m = 0; m < inst.message_count(); ++m) ready[m] = inst.earliest[inst.messages[m]];
  ListScheduler list(inst);
  std::vector<Placement> best;
  double best_time = INFINITY;
  for (int pass = 0; pass <= options.passes; ++pass) {
    const Plan plan = make_plan(inst, phases, pinned, ready, options.split_late);
    if (!list.run(plan.switch_of, plan_order(inst, plan)))
      break;  // cannot happen: plan_order is a linear extension
    if (list.iteration_time() < best_time) {
      best_time = list.iteration_time();
      best = list.placements(plan.switch_of);
    }
    ready = ready_times(inst, list);
  }
  return best;
}

}  // namespace flux::cosched
