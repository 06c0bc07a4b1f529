#include "cosched/lower_bound.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "core/units.hpp"
#include "cosched/port_pair.hpp"
#include "cosched/setup_chain.hpp"

// Validity of the port-energy bound. Fix a feasible schedule with iteration time C, a GPU side
// (its σ duplex ports; or its σ TX ports; or its σ RX ports) and thresholds a, b. Every message m
// of S = {m at this side : r_m ≥ a, q_m ≥ b} starts at t_m ≥ r_m ≥ a (heads are valid earliest
// starts) and ends at t_m + p_m ≤ C − q_m ≤ C − b (its successors' chain of length q_m follows),
// so it occupies its port on its OCS during [t_m, t_m + p_m) ⊆ W = [a, C − b]; α is part of p_m.
// On one port π, split the messages of S by the circuit c they use. A duplex circuit {g, j}
// carries g→j and j→g at once, but one direction only one message at a time, so the port is up
// on c for at least max(T_cπ, R_cπ) (the per-direction sums on π); a simplex port carries one
// direction. Summed over ports, Σ_π max(T_cπ, R_cπ) ≥ max(T_c, R_c).
// Set-ups: let c0 be the circuit π holds or is being set up to at time a (if any). Any other
// circuit c ≠ c0 used by S on π is held at some instant t ∈ W; the holding period around t began
// with a set-up [x, x + τ) towards c, and x ≥ a, or else π would hold or set up c at time a. So
// that set-up lies in W, during which π carries nothing, and distinct circuits need distinct
// set-ups. Hence π is busy for at least Σ_c max(T_cπ, R_cπ) + τ·(k_π − 1)⁺ inside W, where k_π
// counts S's circuits on π; Σ_π k_π ≥ k, so Σ_π (k_π − 1)⁺ ≥ (k − σ)⁺. The σ ports offer σ·|W|:
//   σ·(C − b − a) ≥ Σ_c max(T_c, R_c) + τ·(k − σ)⁺.
// The bound holds for every S with a ≤ min r and b ≤ min q over S, so any subset of thresholds,
// and every prefix of a sweep, is valid. Zero-length messages still need their circuit up at
// t_m ∈ W, which is all the set-up argument uses.
// Whole circuits or one more set-up. The sum above spreads the load evenly over the σ ports, as if
// a circuit could be cut at will; cutting one costs a set-up on a second port. Either every
// circuit of S runs on one port only, or Σ_π k_π ≥ k + 1:
//   * split: the same sum with k + 1, σ·|W| ≥ Σ_c max(T_c, R_c) + τ·(k + 1 − σ)⁺;
//   * whole: a port π holding the circuits J_π (k_π = |J_π|) is busy for Σ_{c ∈ J_π} L_c +
//     τ·(k_π − 1)⁺ inside W, L_c = max(T_c, R_c). So |W| ≥ the largest L_c, and, with L sorted
//     in decreasing order, for m > σ some port holds K = ⌈m/σ⌉ of the m largest circuits:
//     |W| ≥ (the K smallest of them) + τ·(K − 1) = L_{m−K+1} + … + L_m + τ·(K − 1).
// |W| is at least the smaller of the two cases (and at least the plain sum, which holds in both).
//
// Validity of the set-up pigeonhole bound. Each message uses exactly one of its GPU side's σ
// ports, so among σ + 1 messages of that side with pairwise different circuits two, x and y,
// share a port. One port holds one circuit at a time, so they do not overlap, and if x comes first
// the port is re-pointed in between: t_y ≥ t_x + p_x + τ ≥ r_x + p_x + τ, and t_y ≥ r_y, so
// C ≥ t_y + p_y + q_y ≥ max(r_y, r_x + p_x + τ) + p_y + q_y. Not knowing the order, take the
// smaller of the two orders; not knowing the pair, the smallest over the set's pairs. This holds
// whatever the initial configuration and for zero-length messages (a port holds their circuit at
// t_m). Any choice of sets is valid; the search below only picks promising ones.
//
// Validity of the burst heads and tails (family 4). Lemma: let S be messages of one GPU side
// that all start at or after a in a feasible schedule, and E the last end among them. On one port
// π, let k_π be the number of distinct circuits S uses on π. Listing π's holding periods in time,
// each change from one circuit to another is a set-up of τ during which π carries nothing, and the
// k_π − 1 changes between S's first and last message on π lie inside [a, E]; so π is busy inside
// [a, E] for at least Σ_c max(T_cπ, R_cπ) + τ·(k_π − 1)⁺ (as in the energy proof). Hence
//   (i)  σ·(E − a) ≥ Σ_c max(T_c, R_c) + τ·(k − σ)⁺    (summing over the σ ports), and
//   (ii) E − a ≥ (K − 1)·τ + (the K smallest of the per-circuit shortest messages of S), K = ⌈k/σ⌉:
//        some port carries at least K circuits of S (Σ_π k_π ≥ k), and at least one whole message
//        of each of them.
// Heads: if every message of S is a predecessor of task v, t_v ≥ E, and for any a ≤ the heads of
// a subset of S, the subset's (i) and (ii) bound E. So H_v = max(plain head, these bounds over the
// fan-in groups of v's message predecessors at each GPU side, swept over their heads) is a valid
// earliest start, computed in topological order from valid H of the predecessors; the plain head
// part (max over predecessors of H + p, τ for a message when the first set-up is paid) is the
// usual one. Tails: the model is symmetric in time (a set-up sits between two holding periods
// whichever way time runs), so reversing the schedule turns the messages S that succeed task u
// at one side, with valid tails Q_m (C ≥ t_m + p_m + Q_m), into messages released at Q_m; the
// lemma in reversed time gives C − (t_u + p_u) ≥ Q_u with Q_u = max(plain tail, the same bounds
// over u's fan-out groups with releases Q_m). Then C ≥ H_v + p_v + Q_v for every v: H_v ≤ t_v
// and Q_v ≤ C − t_v − p_v in every feasible schedule. Families 2 and 3 need of heads and tails
// only these two inequalities, so they are also valid with H and Q in place of r and q.

namespace flux::cosched {
namespace {

// Raises of heads and tails by less than this share are rounding (sums taken in another order),
// and do not displace another family's certificate.
constexpr double kRounding = 1e-12;

// One message seen from one GPU side.
struct Item {
  double head, tail, p;
  int partner, dir;  // dir 0 = from this GPU (or simplex), 1 = towards it (duplex)
  int task;
};

struct Certificate {
  double value = 0.0, a = 0.0, b = 0.0, load = 0.0;
  int messages = 0, circuits = 0;
  bool whole = false;  // raised by the whole-or-split case analysis
};

// Per-partner accumulators, reused across sweeps: a slot from an older epoch counts as empty.
struct Scratch {
  struct Slot {
    double out = 0.0, in = 0.0;  // energy: T_c, R_c; pigeonhole: out = best pair bound
    double least = INFINITY;     // bursts: the circuit's shortest message
    int pick = -1, epoch = -1;   // pigeonhole: the item attaining it
  };
  std::vector<Slot> slots;
  std::vector<int> touched;  // partners seen in this epoch
  int epoch = 0;
  explicit Scratch(int gpus) : slots(gpus) {}
  // The partner's slot; `fresh` tells whether this epoch sees it for the first time.
  Slot& at(int partner, bool& fresh) {
    Slot& slot = slots[partner];
    fresh = slot.epoch != epoch;
    if (fresh) slot = {0.0, 0.0, INFINITY, -1, epoch}, touched.push_back(partner);
    return slot;
  }
  void next_epoch() {
    ++epoch;
    touched.clear();
  }
};

// Distinct heads, descending, thinned to at most `cap` evenly spaced in rank (keeping the lowest).
std::vector<double> head_thresholds(const std::vector<Item>& items, int cap) {
  std::vector<double> heads(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) heads[k] = items[k].head;
  std::sort(heads.begin(), heads.end(), std::greater<>());
  heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
  if (cap <= 0 || static_cast<int>(heads.size()) <= cap) return heads;
  std::vector<double> picked(cap);
  const double step = static_cast<double>(heads.size() - 1) / std::max(cap - 1, 1);
  for (int k = 0; k < cap; ++k)
    picked[k] = heads[std::min(heads.size() - 1, static_cast<std::size_t>(k * step + 0.5))];
  picked.back() = heads.back();
  return picked;
}

// The window length the whole-or-split analysis proves for the circuits in `s` (k of them, `load`
// in all): min(split, whole) as in the proof above. O(k log k); `loads` is scratch.
double whole_or_split(const Scratch& s, double load, const fabric::Fabric& f,
                      std::vector<double>& loads) {
  const int k = static_cast<int>(s.touched.size()), sigma = f.ocs;
  const double tau = f.reconfig_delay;
  const double split = (load + tau * std::max(0, k + 1 - sigma)) / sigma;
  loads.assign(1, 0.0);  // prefix sums of the loads in decreasing order
  for (int g : s.touched) loads.push_back(std::max(s.slots[g].out, s.slots[g].in));
  std::sort(loads.begin() + 1, loads.end(), std::greater<>());
  double whole = loads[1];
  for (int m = 1; m <= k; ++m) loads[m] += loads[m - 1];
  for (int m = sigma + 1; m <= k; ++m) {
    const int K = (m + sigma - 1) / sigma;
    whole = std::max(whole, loads[m] - loads[m - K] + tau * (K - 1));
  }
  return std::min(split, whole);
}

// Best (a, b) for one GPU side: for each head threshold a (descending), merge the messages with
// head ≥ a into S_a kept by descending tail, then add them in that order (b = the current tail)
// and evaluate the bound after each; O(|S_a|) per threshold. The whole-or-split raise, O(k log k),
// is evaluated only where its ceiling (the split case) could beat `floor`, the bound so far.
Certificate sweep_side(std::vector<Item>& items, const fabric::Fabric& f, int cap, double floor,
                       Scratch& s) {
  Certificate best;
  auto by_tail = [](const Item& x, const Item& y) { return x.tail > y.tail; };
  std::sort(items.begin(), items.end(),
            [](const Item& x, const Item& y) { return x.head > y.head; });
  const double sigma = f.ocs, tau = f.reconfig_delay;
  std::vector<Item> active;
  active.reserve(items.size());
  std::vector<double> loads;
  std::size_t next = 0;
  for (double a : head_thresholds(items, cap)) {
    const auto old_size = static_cast<std::ptrdiff_t>(active.size());
    while (next < items.size() && items[next].head >= a) active.push_back(items[next++]);
    std::sort(active.begin() + old_size, active.end(), by_tail);
    std::inplace_merge(active.begin(), active.begin() + old_size, active.end(), by_tail);
    double load = 0.0;
    int k = 0, count = 0;
    bool fresh = false;
    for (const Item& it : active) {
      Scratch::Slot& c = s.at(it.partner, fresh);
      const double before = std::max(c.out, c.in);
      (it.dir == 0 ? c.out : c.in) += it.p;
      load += std::max(c.out, c.in) - before;
      k += fresh;
      ++count;
      const double v = a + it.tail + (load + tau * std::max(0, k - f.ocs)) / sigma;
      if (v > best.value) best = {v, a, it.tail, load, count, k};
      const double ceiling = v + tau / sigma;  // the split case, when k ≥ σ
      if (k >= f.ocs && ceiling > std::max(best.value, floor)) {
        const double w = a + it.tail + whole_or_split(s, load, f, loads);
        if (w > best.value) best = {w, a, it.tail, load, count, k, true};
      }
    }
    s.next_epoch();
  }
  return best;
}

// The messages of every GPU side (duplex GPU g: index g; simplex TX of g: g, RX of g: gpus + g),
// filed once so that one side's items are gathered at a time: all sides' items at once were a
// 40-byte record per message end, 1.3 GB on the 18.5 M-task GPT-3 iteration.
class SideIndex {
 public:
  explicit SideIndex(const CoschedInstance& inst)
      : inst_(inst),
        duplex_(inst.fabric.circuit == fabric::CircuitKind::duplex),
        rx_(duplex_ ? 0 : inst.fabric.gpus),
        first_((duplex_ ? 1 : 2) * static_cast<std::size_t>(inst.fabric.gpus) + 1, 0) {
    for (const int v : inst.messages) {
      ++first_[inst.workload.tasks[v].src + 1];
      ++first_[inst.workload.tasks[v].dst + rx_ + 1];
    }
    for (std::size_t s = 1; s < first_.size(); ++s) first_[s] += first_[s - 1];
    ends_.resize(first_.back());
    std::vector<std::int64_t> next(first_.begin(), first_.end() - 1);
    // In message order, each message's sending end first: the order the sweeps' sorts start from.
    for (int m = 0; m < inst.message_count(); ++m) {
      const workload::Task& t = inst.message_task(m);
      ends_[next[t.src]++] = 2 * m;
      ends_[next[t.dst + rx_]++] = 2 * m + 1;
    }
  }

  [[nodiscard]] std::size_t sides() const { return first_.size() - 1; }

  // Side s's messages with these heads and tails, into `items`.
  void gather(std::size_t s, const std::vector<double>& head, const std::vector<double>& tail,
              std::vector<Item>& items) const {
    items.clear();
    for (std::int64_t k = first_[s]; k < first_[s + 1]; ++k) {
      const int m = ends_[k] / 2;
      const bool receiving = ends_[k] % 2 == 1;
      const int v = inst_.messages[m];
      const workload::Task& t = inst_.workload.tasks[v];
      items.push_back({head[v], tail[v], inst_.duration[v], receiving ? t.src : t.dst,
                       receiving && duplex_ ? 1 : 0, v});
    }
  }

 private:
  const CoschedInstance& inst_;
  bool duplex_;
  int rx_;                           // where a message's receiving side is filed
  std::vector<std::int64_t> first_;  // side s's ends: ends_[first_[s], first_[s + 1])
  std::vector<int> ends_;            // 2 m for message m's sending end, 2 m + 1 for its receiving
};

// C ≥ this when u and w (different circuits) share a port: the first ends, a set-up of τ, the
// second runs, then its tail. Either order (no DAG knowledge needed); and each message alone.
double pair_bound(const Item& u, const Item& w, double tau) {
  auto then = [tau](const Item& x, const Item& y) {
    return end_after_port_change(x.head, x.p, y.head, y.p, y.tail, tau);
  };
  return std::max({std::min(then(u, w), then(w, u)), u.head + u.p + u.tail, w.head + w.p + w.tail});
}

struct Pigeonhole {
  double value = 0.0;
  std::vector<int> tasks;
};

// σ + 1 messages of one side with pairwise different circuits: two of them share a port, so
// C ≥ min over the set's pairs of pair_bound. For each message w, the other members are the σ
// circuits whose best partner among w's `reach` neighbours on each side in head order gives the
// largest pair bound with w. O(n · reach · log reach).
Pigeonhole pigeonhole_side(std::vector<Item>& items, const fabric::Fabric& f, int reach,
                           Scratch& s) {
  Pigeonhole best;
  std::sort(items.begin(), items.end(),
            [](const Item& x, const Item& y) { return x.head < y.head; });
  const int n = static_cast<int>(items.size());
  const double tau = f.reconfig_delay;
  std::vector<int> set;
  for (int i = 0; i < n && reach > 0; ++i) {
    const Item& w = items[i];
    bool fresh = false;
    for (int j = std::max(0, i - reach); j < std::min(n, i + reach + 1); ++j) {
      if (items[j].partner == w.partner) continue;
      const double pb = pair_bound(items[j], w, tau);
      Scratch::Slot& c = s.at(items[j].partner, fresh);
      if (fresh || pb > c.out) c.out = pb, c.pick = j;
    }
    if (static_cast<int>(s.touched.size()) >= f.ocs) {
      std::partial_sort(s.touched.begin(), s.touched.begin() + f.ocs, s.touched.end(),
                        [&](int x, int y) { return s.slots[x].out > s.slots[y].out; });
      set.assign(1, i);
      for (int k = 0; k < f.ocs; ++k) set.push_back(s.slots[s.touched[k]].pick);
      double value = INFINITY;
      for (std::size_t x = 0; x < set.size(); ++x)
        for (std::size_t y = x + 1; y < set.size(); ++y)
          value = std::min(value, pair_bound(items[set[x]], items[set[y]], tau));
      if (value > best.value) {
        best.value = value;
        best.tasks.clear();
        for (int k : set) best.tasks.push_back(items[k].task);
      }
    }
    s.next_epoch();
  }
  return best;
}

// The lemma's bound on the last end of `items` (one GPU side, `head` = a valid release): for each
// release a, the items released at or after a, by (i) and (ii). O(n log n + n·k) for k circuits.
double burst_end(std::vector<Item>& items, const fabric::Fabric& f, Scratch& s) {
  std::sort(items.begin(), items.end(),
            [](const Item& x, const Item& y) { return x.head > y.head; });
  const double sigma = f.ocs, tau = f.reconfig_delay;
  double best = 0.0, load = 0.0;
  std::vector<double> least;
  bool fresh = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    Scratch::Slot& c = s.at(it.partner, fresh);
    const double before = std::max(c.out, c.in);
    (it.dir == 0 ? c.out : c.in) += it.p;
    load += std::max(c.out, c.in) - before;
    c.least = std::min(c.least, it.p);
    if (i + 1 < items.size() && items[i + 1].head == it.head) continue;  // a = it.head: take all
    const int k = static_cast<int>(s.touched.size()), K = (k + f.ocs - 1) / f.ocs;
    least.clear();
    for (int g : s.touched) least.push_back(s.slots[g].least);
    std::nth_element(least.begin(), least.begin() + (K - 1), least.end());
    double shortest = 0.0;
    for (int j = 0; j < K; ++j) shortest += least[j];
    best = std::max({best, it.head + (load + tau * std::max(0, k - f.ocs)) / sigma,
                     it.head + (K - 1) * tau + shortest});
  }
  s.next_epoch();
  return best;
}

// The largest burst_end over the GPU sides of the message tasks in `around` (a task's predecessors
// or successors), each seen with release `release`; sides with one message add nothing.
double burst_groups(const CoschedInstance& inst, std::span<const int> around,
                    const std::vector<double>& release, Scratch& s) {
  const fabric::Fabric& f = inst.fabric;
  const bool duplex = f.circuit == fabric::CircuitKind::duplex;
  std::vector<std::pair<int, Item>> at;
  for (int u : around) {
    if (inst.message_of[u] < 0) continue;
    const workload::Task& t = inst.workload.tasks[u];
    const double r = release[u], p = inst.duration[u];
    at.push_back({t.src, {r, 0.0, p, t.dst, 0, u}});
    at.push_back({t.dst + (duplex ? 0 : f.gpus), {r, 0.0, p, t.src, duplex ? 1 : 0, u}});
  }
  if (at.size() < 4) return 0.0;  // one message: its own r + p is already in the plain pass
  std::sort(at.begin(), at.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double best = 0.0;
  std::vector<Item> group;
  for (std::size_t i = 0; i < at.size();) {
    group.clear();
    std::size_t j = i;
    for (; j < at.size() && at[j].first == at[i].first; ++j) group.push_back(at[j].second);
    if (group.size() > 1) best = std::max(best, burst_end(group, f, s));
    i = j;
  }
  return best;
}

// Heads H (forward, over each task's predecessors) raised by family 4's fan-in groups and
// family 5's set-up chains from the plain heads, or tails Q (backward, over successors: fan-out
// groups) from the plain tails. `chain_steps[v]` counts the family-5 raises on the path that
// attains v's value (the plain part follows its best neighbour). Nullopt when the deadline passes
// first.
std::optional<std::vector<double>> raised_times(const CoschedInstance& inst,
                                                std::vector<double> out, bool forward,
                                                const FluxBoundOptions& options, Scratch& s,
                                                std::vector<int>& chain_steps) {
  if (options.deadline.passed()) return std::nullopt;
  std::optional<SetupChains> chains;
  if (options.setup_chains) chains.emplace(inst, forward, options.chain_foreign_sides);
  chain_steps.assign(out.size(), 0);
  DeadlinePoll deadline(options.deadline);
  for (std::size_t k = 0; k < inst.topo.size(); ++k) {
    if (deadline.passed()) return std::nullopt;
    const int v = inst.topo[forward ? k : inst.topo.size() - 1 - k];
    const std::span<const int> around =
        forward ? std::span<const int>(inst.workload.tasks[v].after) : inst.succ[v];
    int most_steps = 0;
    for (int u : around) {
      most_steps = std::max(most_steps, chain_steps[u]);
      if (out[u] + inst.duration[u] > out[v])
        out[v] = out[u] + inst.duration[u], chain_steps[v] = chain_steps[u];
    }
    if (options.bursts) {
      const double burst = burst_groups(inst, around, out, s);
      if (burst > out[v]) out[v] = burst, chain_steps[v] = most_steps;
    }
    if (chains) {
      // A raise within rounding (lags summed in another order than the plain path) is not
      // credited to family 5.
      const double chain = chains->visit(v, out);
      if (chain > out[v] * (1 + kRounding)) chain_steps[v] = most_steps + 1;
      out[v] = std::max(out[v], chain);
    }
  }
  return out;
}

}  // namespace

std::vector<double> flux_heads(const CoschedInstance& inst) {
  const bool first_setup = !inst.fabric.initial_config_free;
  std::vector<double> head(inst.workload.tasks.size(), 0.0);
  for (int v : inst.topo) {
    for (int p : inst.workload.tasks[v].after)
      head[v] = std::max(head[v], head[p] + inst.duration[p]);
    if (first_setup && inst.message_of[v] >= 0)
      head[v] = std::max(head[v], inst.fabric.reconfig_delay);
  }
  return head;
}

double critical_path_length(const CoschedInstance& inst, const std::vector<double>& head) {
  double cp = 0.0;
  for (std::size_t v = 0; v < head.size(); ++v)
    cp = std::max(cp, head[v] + inst.duration[v] + inst.tail[v]);
  return cp;
}

namespace {

// Families 2 and 3 on every GPU side with these heads and tails; `out` keeps the best.
void side_families(const CoschedInstance& inst, const std::vector<double>& head,
                   const std::vector<double>& tail, const FluxBoundOptions& options, bool bursts,
                   Scratch& scratch, FluxBound& out) {
  if (options.deadline.passed()) return;  // before gathering the sides' messages: O(M log M)
  const SideIndex sides(inst);
  std::vector<Item> items;
  const int gpus = inst.fabric.gpus;
  const bool duplex = inst.fabric.circuit == fabric::CircuitKind::duplex;
  for (std::size_t s = 0; s < sides.sides() && !options.deadline.passed(); ++s) {
    sides.gather(s, head, tail, items);
    auto at_side = [&](BoundSource source, double value) {
      FluxBound fresh;
      fresh.value = value;
      fresh.critical_path = out.critical_path;
      fresh.source = source;
      fresh.burst_times = bursts;
      fresh.gpu = static_cast<int>(s) % gpus;
      fresh.side = duplex ? "ports" : (static_cast<int>(s) < gpus ? "tx" : "rx");
      out = std::move(fresh);
    };
    // On the raised times a family must beat the bound by more than rounding.
    auto beats = [&](double value) { return value > out.value * (bursts ? 1 + kRounding : 1.0); };
    const Certificate c =
        sweep_side(items, inst.fabric, options.max_head_thresholds, out.value, scratch);
    if (beats(c.value)) {
      at_side(BoundSource::port_energy, c.value);
      out.window_begin = c.a;
      out.window_end = c.value - c.b;
      out.messages = c.messages;
      out.circuits = c.circuits;
      out.load = c.load;
      out.whole_circuits = c.whole;
    }
    const Pigeonhole ph = pigeonhole_side(items, inst.fabric, options.pigeonhole_reach, scratch);
    if (beats(ph.value)) {
      at_side(BoundSource::setup_pigeonhole, ph.value);
      out.messages = out.circuits = static_cast<int>(ph.tasks.size());
      for (int v : ph.tasks) out.task_ids.push_back(inst.workload.tasks[v].id);
    }
  }
}

}  // namespace

namespace {

// C ≥ H_v + p_v + Q_v: replaces `out` by the best task's path if it is larger; returns that task
// (or -1).
int best_path(const CoschedInstance& inst, const std::vector<double>& head,
              const std::vector<double>& H, const std::vector<double>& Q,
              const std::vector<int>& head_steps, const std::vector<int>& tail_steps,
              FluxBound& out) {
  int best = -1;
  for (std::size_t v = 0; v < H.size(); ++v) {
    const double value = H[v] + inst.duration[v] + Q[v];
    if (value <= out.value * (1 + kRounding)) continue;
    FluxBound fresh;
    fresh.value = value;
    fresh.critical_path = out.critical_path;
    fresh.chain_steps = head_steps[v] + tail_steps[v];
    fresh.source = fresh.chain_steps > 0 ? BoundSource::setup_chain : BoundSource::burst_path;
    fresh.task_ids = {inst.workload.tasks[v].id};
    fresh.head_raise = H[v] - head[v];
    fresh.tail_raise = Q[v] - inst.tail[v];
    out = std::move(fresh);
    best = static_cast<int>(v);
  }
  return best;
}

}  // namespace

namespace {

struct RaisedTimes {
  std::vector<double> head, tail;  // H and Q
};

// Families 4 and 5: the raised heads and tails, and the best path through them into `out`;
// nullopt when they do not finish in time (then they are not used).
std::optional<RaisedTimes> raise_heads_and_tails(const CoschedInstance& inst,
                                                 const FluxBoundOptions& options, Scratch& scratch,
                                                 FluxBound& out) {
  std::vector<int> head_steps, tail_steps;
  auto H = raised_times(inst, flux_heads(inst), true, options, scratch, head_steps);
  auto Q = H ? raised_times(inst, inst.tail, false, options, scratch, tail_steps) : std::nullopt;
  if (!Q) return std::nullopt;
  // The plain heads again (one pass) rather than held through both passes: their peak.
  const auto head = flux_heads(inst);
  const int v = best_path(inst, head, *H, *Q, head_steps, tail_steps, out);
  if (v >= 0 && out.source == BoundSource::setup_chain && options.bursts) {
    // The step counts follow one derivation; credit family 4 when it attains the value alone
    // (if that check finishes in time: otherwise family 5 keeps the credit it has).
    FluxBoundOptions bursts_only = options;
    bursts_only.setup_chains = false;
    const auto H4 = raised_times(inst, head, true, bursts_only, scratch, head_steps);
    const auto Q4 =
        H4 ? raised_times(inst, inst.tail, false, bursts_only, scratch, tail_steps) : std::nullopt;
    if (Q4 && (*H4)[v] + inst.duration[v] + (*Q4)[v] >= out.value) {
      out.source = BoundSource::burst_path;
      out.chain_steps = 0;
      out.head_raise = (*H4)[v] - head[v];
      out.tail_raise = (*Q4)[v] - inst.tail[v];
    }
  }
  return RaisedTimes{std::move(*H), std::move(*Q)};
}

FluxBound every_family(const CoschedInstance& inst, const FluxBoundOptions& options) {
  FluxBound out;
  Scratch scratch(inst.fabric.gpus);
  {
    const auto head = flux_heads(inst);
    out.critical_path = critical_path_length(inst, head);
    out.value = out.critical_path;
    side_families(inst, head, inst.tail, options, false, scratch, out);
  }
  if (!options.bursts && !options.setup_chains) return out;
  const auto raised = raise_heads_and_tails(inst, options, scratch, out);
  if (raised) side_families(inst, raised->head, raised->tail, options, true, scratch, out);
  return out;
}

}  // namespace

FluxBound flux_lower_bound(const CoschedInstance& inst, const FluxBoundOptions& options) {
  FluxBound out = every_family(inst, options);
  out.complete = !options.deadline.passed();  // conservative: it may have passed at the very end
  return out;
}

std::string describe(const FluxBound& b) {
  const std::string at = fmt::format("gpu {}{}", b.gpu, b.side == "ports" ? "" : " " + b.side);
  const std::string on = b.burst_times ? " (burst heads and tails)" : "";
  switch (b.source) {
    case BoundSource::critical_path:
      return "critical path";
    case BoundSource::port_energy:
      return fmt::format("port energy {} [{}, {}]: {} messages, {} circuits, load {}{}{}", at,
                         format_time(b.window_begin), format_time(b.window_end), b.messages,
                         b.circuits, format_time(b.load),
                         b.whole_circuits ? ", whole circuits or one more set-up" : "", on);
    case BoundSource::setup_pigeonhole:
      return fmt::format("set-up pigeonhole {}: tasks {} use {} circuits on {} ports{}", at,
                         fmt::join(b.task_ids, ", "), b.circuits, b.circuits - 1, on);
    case BoundSource::burst_path:
      return fmt::format("set-up bursts: path through task {}, heads +{}, tails +{}",
                         b.task_ids.front(), format_time(b.head_raise), format_time(b.tail_raise));
    case BoundSource::setup_chain:
      return fmt::format(
          "set-up chains: path through task {}, heads +{}, tails +{}, {} chained "
          "pigeonholes",
          b.task_ids.front(), format_time(b.head_raise), format_time(b.tail_raise), b.chain_steps);
  }
  return "";
}

}  // namespace flux::cosched
