// `spectra`: the improved default.
//
// Portfolio over decompositions × schedulers, every candidate a complete schedule, the shortest
// kept. Candidate 0 is exactly `spectra-ref` (LP-weighted greedy + LPT + reference EQUALIZE), so
// the result is never worse than the reference on any instance.
//   decompositions: greedy with LP weights (the reference's), and the threshold-matching
//                   decomposition (bottleneck_decompose.hpp, LP re-weighted) when it needs at most
//                   Δ + 1 permutations, the support has at most 20000 non-zeros and at most
//                   8(Δ + 1) distinct values; and the permutation pool (pool_decompose.hpp)
//                   when the greedy permutations last more than 1.25x the busiest line's load in
//                   total (random sparse supports; never on the paper's workloads, whose
//                   schedules therefore stay as they were), δ·Δ is below that overshoot and
//                   the support has at most 5000 non-zeros; and the column generation
//                   decomposition (colgen_decompose.hpp) under the same overshoot gate, at
//                   every δ (it weighs δ itself), on supports of at most 1000 non-zeros;
//   schedulers:     LPT + reference EQUALIZE followed by the improved EQUALIZE, LPT + improved
//                   EQUALIZE, wrap-around split with bisected makespan (largest-first and
//                   smallest-first order).
//   then, under column generation's gate, the plan search (plan_search.hpp) on the winning plan:
//                   its durations re-optimised by an LP with the switches fixed, pieces dropped or
//                   moved while that LP's makespan falls; kept only if strictly shorter, so the
//                   result stays never worse than `spectra-ref`;
//   and last, under the same gate, peeled decompositions (peel_decompose.hpp) aimed at 0.9x the
//                   searched plan's makespan T: k·s permutations of weight (0.9 T − kδ) / k each
//                   (k = 1..8), each serving the most residual demand up to that weight, then
//                   DECOMPOSE on the rest; scheduled like the others, plan-searched when close,
//                   kept only if strictly shorter than the searched plan; a second round aims
//                   at the new winner. Outside that gate, where DECOMPOSE overshoots the busiest
//                   line by more than 1.15x on at most 5000 non-zeros (wide-flow synthetic), the
//                   same rounds with one peeled decomposition each (k·s nearest 16) and no
//                   plan search;
//   and, under either gate, DECOMPOSE's Δ classes recoloured for the least sum of their maxima
//                   (kempe_decompose.hpp), scheduled and searched like the winner, then peeled
//                   again if it wins; it comes after every other candidate, so what they found
//                   stays a candidate. Under either gate every decomposition is also packed whole
//                   by LPT plus moves and swaps off the busiest switch (swap_packing.hpp), then
//                   improved EQUALIZE.
// Stretch weights on the same permutations were a candidate too but never won on the quality grid
// (bench/spectra_quality_bench.cpp: 7 generators x 8 cells x 3 seeds), so they are not tried.
// Cost: one greedy decomposition (Δ sparse assignments), at most one threshold decomposition, one
// or two small LPs, and O(K·s) scheduling work per candidate; where the overshoot gate opens, the
// pool's ~24 LPs, column generation's up to 4Δ + 8 pricing steps and ~40 warm LP re-solves,
// the plan search's up to 48 small LPs, and the peeling's (Σ_k k·s ≤ 36s sparse assignments, up to
// 8 DECOMPOSEs and 16 LPs, one more plan search) (together hundreds of ms at n = 50, where
// `spectra-ref` takes a few). Candidates are compared by the makespan of their plans
// (plan_makespan); slots are built for the winner only.
#include <algorithm>
#include <limits>
#include <numeric>

#include "matrix/switch_plan.hpp"
#include "spectra/bottleneck_decompose.hpp"
#include "spectra/colgen_decompose.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/kempe_decompose.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/peel_decompose.hpp"
#include "spectra/plan_search.hpp"
#include "spectra/pool_decompose.hpp"
#include "spectra/spectra.hpp"
#include "spectra/support.hpp"
#include "spectra/swap_packing.hpp"
#include "spectra/wraparound.hpp"

namespace flux::spectra {
namespace {

constexpr int kThresholdMaxNonzeros = 20000;
constexpr int kPoolMaxNonzeros = 5000;
// Column generation's LP has a row per non-zero and its cost grows with them: on wide-flow
// synthetic n = 64 (~1600 non-zeros) it took ~1 s per run for 0.5 % (docs/results/spectra.md §9),
// so it runs on small supports only (random sparse n = 50 has ~500).
constexpr int kColgenMaxNonzeros = 1000;
static_assert(kColgenMaxNonzeros <= kPoolMaxNonzeros, "the overshoot is measured up to the pool's");
// The plan search (plan_search.hpp) solves up to 48 LPs with a row per distinct cover set: small
// supports only, like column generation.
constexpr int kSearchMaxNonzeros = kColgenMaxNonzeros;
// The peeled decompositions (peel_decompose.hpp) aim at a makespan kPeelTarget x the best plan
// so far, with 1 to kPeelMaxSlots permutations per switch; the best of their plans is searched
// when within kPeelSearchSlack of that plan (docs/results/spectra.md §9.2).
constexpr double kPeelTarget = 0.9;
constexpr int kPeelMaxSlots = 8;
constexpr double kPeelSearchSlack = 1.03;
// Peeling rounds, each aimed at the last winner (a second round gained 0.8 % on random sparse
// n = 50 for ~5 % more time, a third 0.03 %).
constexpr int kPeelRounds = 2;
// Outside column generation's gate (more than 1000 non-zeros, or an overshoot of at most 1.25)
// the peeling still runs where DECOMPOSE overshoots the busiest line by more than
// kPeelOvershoot: wide-flow synthetic n = 64 (1.19-1.36 on the bench's seeds) but not synthetic
// n = 100 (1.07-1.08), GPT or MoE (1.00-1.01), where it never won. There each round builds one
// peeled decomposition, the k whose k·s is nearest kPeelWidePerms (every win on wide-flow
// synthetic n = 64 with k = 1..8 peeled 12-20 permutations; each decomposition costs about as
// much as DECOMPOSE itself), and skips the plan search (its LPs cost +70 % time for 0.02 %);
// docs/results/spectra.md §9.3.
constexpr double kPeelOvershoot = 1.15;
constexpr int kPeelWidePerms = 16;
// The pool is tried only where the greedy permutations' total exceeds the busiest line's load by
// this factor: below it the most it could save is small next to its cost (about 24 LPs).
constexpr double kPoolOvershoot = 1.25;

// Every schedule for one decomposition, in a fixed order; with `reference` the first is
// spectra-ref's (LPT + reference EQUALIZE); with `packed`, last, the swap packing
// (swap_packing.hpp) + improved EQUALIZE.
std::vector<matrix::SwitchPlan> candidate_plans(const matrix::Decomposition& dec, int s,
                                                double delta, bool reference, bool packed) {
  std::vector<matrix::SwitchPlan> plans;
  matrix::SwitchPlan ref = matrix::lpt_assign(dec.weights, s, delta);
  matrix::SwitchPlan fresh = ref;
  equalize_reference(ref, delta);
  if (reference) plans.push_back(ref);
  equalize_improved(ref, delta);
  plans.push_back(std::move(ref));
  equalize_improved(fresh, delta);
  plans.push_back(std::move(fresh));
  std::vector<int> order(dec.weights.size());
  std::iota(order.begin(), order.end(), 0);
  plans.push_back(wraparound_plan(dec.weights, order, s, delta));
  std::reverse(order.begin(), order.end());
  plans.push_back(wraparound_plan(dec.weights, order, s, delta));
  if (packed) {
    plans.push_back(swap_packed_assign(dec.weights, s, delta));
    equalize_improved(plans.back(), delta);
  }
  return plans;
}

// Whether `values` holds at most `limit` distinct numbers; stops at the first one over.
bool few_distinct(const std::vector<double>& values, std::size_t limit) {
  std::vector<double> seen;  // sorted
  for (double v : values) {
    const auto it = std::lower_bound(seen.begin(), seen.end(), v);
    if (it != seen.end() && *it == v) continue;
    if (seen.size() == limit) return false;
    seen.insert(it, v);
  }
  return true;
}

// The threshold decomposition, LP re-weighted (weights never grow: the peeled thresholds are a
// feasible LP point). Empty when it would need too many permutations.
matrix::Decomposition threshold_decomposition(const Support& s, double delta) {
  // Worth it only for sums of few permutations (K close to Δ); elsewhere it needs hundreds of
  // permutations, so stop early, and skip large supports where even Δ steps cost too much.
  // A sum of K permutations has few distinct values (the weights and the sums where permutations
  // collide); a noisy matrix has all values distinct and a threshold step then zeroes only the
  // entries equal to its threshold, so such matrices are not even tried.
  if (s.size() > kThresholdMaxNonzeros) return {};
  const int max_line = max_line_entries(s);
  if (!few_distinct(s.value, 8 * (static_cast<std::size_t>(max_line) + 1))) return {};
  matrix::Decomposition dec =
      bottleneck_decompose(s, {.delta = delta, .max_permutations = max_line + 1});
  if (!dec.perms.empty()) (void)reweigh_for_least_total(s, dec, false);
  return dec;
}

// How far DECOMPOSE's permutations overshoot the busiest line: the gate of the pool and of column
// generation, which only pay where the greedy total is well above what a line needs.
struct Overshoot {
  double total = 0.0, line = 0.0;
  [[nodiscard]] bool large() const { return total > kPoolOvershoot * line; }
  [[nodiscard]] bool peelable() const { return total > kPeelOvershoot * line; }
};

Overshoot overshoot(const Support& s, const matrix::Decomposition& greedy) {
  return {std::accumulate(greedy.weights.begin(), greedy.weights.end(), 0.0), max_line_sum(s)};
}

// The permutation pool when DECOMPOSE's total overshoots the busiest line; empty otherwise.
matrix::Decomposition pool_candidate(const matrix::MatrixProblem& p, const Support& s,
                                     const matrix::Decomposition& greedy, const Overshoot& over) {
  if (s.size() > kPoolMaxNonzeros || greedy.perms.empty() || !over.large()) return {};
  // The pools that win hold about Δ more permutations than the greedy one: worth it only while
  // their reconfigurations cost less switch time than the overshoot they could save.
  if (p.delta * static_cast<double>(greedy.perms.size()) >= over.total - over.line) return {};
  return pool_decompose(s, greedy, {.switches = p.switches, .delta = p.delta});
}

// Column generation (colgen_decompose.hpp) where DECOMPOSE's total overshoots the busiest line
// as much as for the pool; empty otherwise. No δ·Δ gate: generation itself stops when new
// permutations no longer pay δ, and it wins at every δ of the sparse grid.
matrix::Decomposition colgen_candidate(const matrix::MatrixProblem& p, const Support& s,
                                       const matrix::Decomposition& greedy, const Overshoot& over) {
  if (s.size() > kColgenMaxNonzeros || greedy.perms.empty() || !over.large()) return {};
  return colgen_decompose(s, greedy, {.switches = p.switches, .delta = p.delta});
}

// DECOMPOSE's Δ classes recoloured for the least sum of class maxima (kempe_decompose.hpp), LP
// re-weighted (their maxima if the LP fails); empty if the recolouring gave up.
matrix::Decomposition kempe_candidate(const Support& s, const matrix::Decomposition& greedy) {
  matrix::Decomposition dec = kempe_decompose(s, greedy);
  if (!dec.perms.empty()) (void)reweigh_for_least_total(s, dec, false);
  return dec;
}

// The shortest plan over every decomposition × scheduler, and its decomposition.
struct Winner {
  matrix::SwitchPlan plan;
  matrix::Decomposition dec;
  double makespan = std::numeric_limits<double>::infinity();
};

// With `with_reference`, decs[0] is spectra-ref's decomposition and its first plan spectra-ref's
// schedule; later plans must be strictly shorter to win. `packed`: candidate_plans's.
Winner shortest_plan(const std::vector<matrix::Decomposition>& decs, const matrix::MatrixProblem& p,
                     bool with_reference, bool packed = false) {
  Winner win;
  std::size_t best_dec = 0;
  for (std::size_t k = 0; k < decs.size(); ++k)
    for (matrix::SwitchPlan& plan :
         candidate_plans(decs[k], p.switches, p.delta, with_reference && k == 0, packed)) {
      // A plan's makespan is its largest load (less only if empty pieces end a switch, which
      // then emit no slot): skip plans clearly no better than the best.
      const double load = *std::max_element(plan.load.begin(), plan.load.end());
      if (load > win.makespan * (1 + 1e-9)) continue;
      if (const double m = plan_makespan(plan, p.delta); m < win.makespan) {
        win.plan = std::move(plan);
        best_dec = k;
        win.makespan = m;
      }
    }
  if (!decs.empty()) win.dec = decs[best_dec];
  return win;
}

// The plan search (plan_search.hpp) on `w`, kept only when strictly shorter: the re-solved LP
// often returns the same makespan up to round-off.
Winner searched(const Support& support, Winner w, const matrix::MatrixProblem& p) {
  SearchedPlan s = search_plan(support, w.dec, w.plan, {.delta = p.delta});
  if (s.dec.perms.empty()) return w;
  const double m = plan_makespan(s.plan, p.delta);
  if (m >= w.makespan * (1 - 1e-9)) return w;
  return {std::move(s.plan), std::move(s.dec), m};
}

// Which peeled decompositions to build: k permutations per switch for k in [min_slots,
// max_slots], and whether to plan-search the best.
struct PeelRange {
  int min_slots = 1;
  int max_slots = kPeelMaxSlots;
  bool search = true;
};

// The range outside column generation's gate: the one k with k·s nearest kPeelWidePerms.
PeelRange wide_peel_range(int switches) {
  const int k = std::clamp((kPeelWidePerms + switches / 2) / switches, 1, kPeelMaxSlots);
  return {k, k, false};
}

// The shortest plan over peeled decompositions (peel_decompose.hpp) shaped for a makespan of
// kPeelTarget x `target`: k permutations per switch of cap (T − kδ) / k each, k in `range` while
// the cap is positive; searched (if `range` says so) when within kPeelSearchSlack of `target`.
// Empty (infinite makespan) when nothing was built or it is too far off.
Winner peeled_plan(const Support& support, const matrix::MatrixProblem& p, double target,
                   const PeelRange& range) {
  const double t = kPeelTarget * target;
  std::vector<matrix::Decomposition> decs;
  for (int k = range.min_slots; k <= range.max_slots; ++k) {
    const double cap = (t - k * p.delta) / k;
    if (cap <= 0.0) break;
    for (matrix::Decomposition& d : peel_decompose(support, cap, k * p.switches))
      decs.push_back(std::move(d));
  }
  if (decs.empty()) return {};
  Winner w = shortest_plan(decs, p, false, true);
  if (w.makespan > target * kPeelSearchSlack) return {};
  if (!range.search) return w;
  return searched(support, std::move(w), p);
}

// Peeled plans aimed at the winner's makespan; a peeled plan that wins sets a new, shorter target:
// aim again from it.
Winner peel_rounds(const Support& support, const matrix::MatrixProblem& p, Winner win,
                   const PeelRange& range) {
  for (int round = 0; round < kPeelRounds; ++round) {
    Winner c = peeled_plan(support, p, win.makespan, range);
    if (c.makespan >= win.makespan * (1 - 1e-9)) break;
    win = std::move(c);
  }
  return win;
}

}  // namespace

matrix::MatrixResult spectra_improved(const matrix::MatrixProblem& p) {
  const Support support = make_checked_support(p);
  std::vector<matrix::Decomposition> decs;
  decs.push_back(spectra_decompose(support));  // the reference's
  if (matrix::Decomposition t = threshold_decomposition(support, p.delta); !t.perms.empty())
    decs.push_back(std::move(t));
  // Measured only where one of the two can run (the pool's limit is the larger).
  const Overshoot over =
      support.size() <= kPoolMaxNonzeros ? overshoot(support, decs.front()) : Overshoot{};
  if (matrix::Decomposition pool = pool_candidate(p, support, decs.front(), over);
      !pool.perms.empty())
    decs.push_back(std::move(pool));
  if (matrix::Decomposition cg = colgen_candidate(p, support, decs.front(), over);
      !cg.perms.empty())
    decs.push_back(std::move(cg));
  // Compare makespans computed from the plans and build the slots of the winner only. The first
  // candidate is spectra-ref's and later ones must be strictly shorter.
  Winner win = shortest_plan(decs, p, true, over.peelable());
  const bool colgen_gate = support.size() <= kSearchMaxNonzeros && over.large();
  if (colgen_gate && win.makespan > 0.0)
    // The plan search, under the same gate as column generation: elsewhere (synthetic n = 100 at
    // s = 16) it gained about 0.1 % for 4x the run time.
    win = searched(support, std::move(win), p);
  if ((colgen_gate || over.peelable()) && win.makespan > 0.0) {
    const PeelRange range = colgen_gate ? PeelRange{} : wide_peel_range(p.switches);
    win = peel_rounds(support, p, std::move(win), range);
    // The recoloured classes last after the rest, so every plan found above stays a candidate.
    if (matrix::Decomposition k = kempe_candidate(support, decs.front()); !k.perms.empty()) {
      Winner c = shortest_plan({std::move(k)}, p, false, true);
      if (colgen_gate && c.makespan > 0.0) c = searched(support, std::move(c), p);
      if (c.makespan < win.makespan * (1 - 1e-9))
        win = peel_rounds(support, p, std::move(c), range);
    }
  }
  matrix::MatrixResult r = plan_result(win.plan, win.dec, p);
  r.schedule.algorithm = "spectra";
  return r;
}

}  // namespace flux::spectra
