// `spectra`: the improved default (reference/spectra.md §2, issue item 5).
//
// Portfolio over decompositions × schedulers, every candidate a complete schedule, the shortest
// kept. Candidate 0 is exactly `spectra-ref` (LP-weighted greedy + LPT + reference EQUALIZE), so
// the result is never worse than the reference on any instance.
//   decompositions: greedy with LP weights (the reference's), and the threshold-matching
//                   decomposition (bottleneck_decompose.hpp, LP re-weighted) when it needs at most
//                   Δ + 1 permutations, the support has at most 20000 non-zeros and at most
//                   8(Δ + 1) distinct values;
//   schedulers:     LPT + reference EQUALIZE followed by the improved EQUALIZE, LPT + improved
//                   EQUALIZE, wrap-around split with bisected makespan (largest-first and
//                   smallest-first order).
// Stretch weights on the same permutations were a candidate too but never won on the quality grid
// (bench/spectra_quality_bench.cpp: 7 generators x 8 cells x 3 seeds), so they are not tried.
// Cost: one greedy decomposition (Δ sparse assignments), at most one threshold decomposition, one
// or two small LPs, and O(K·s) scheduling work per candidate.
#include <algorithm>
#include <numeric>

#include "spectra/bottleneck_decompose.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/spectra.hpp"
#include "spectra/support.hpp"
#include "spectra/switch_plan.hpp"
#include "spectra/wraparound.hpp"

namespace flux {
namespace {

constexpr int kThresholdMaxNonzeros = 20000;

// Every schedule for one decomposition, in a fixed order.
std::vector<SwitchPlan> candidate_plans(const Decomposition& dec, int s, double delta) {
  std::vector<SwitchPlan> plans;
  SwitchPlan ref = lpt_assign(dec.weights, s, delta);
  SwitchPlan fresh = ref;
  equalize_reference(ref, delta);
  equalize_improved(ref, delta);
  plans.push_back(std::move(ref));
  equalize_improved(fresh, delta);
  plans.push_back(std::move(fresh));
  std::vector<int> order(dec.weights.size());
  std::iota(order.begin(), order.end(), 0);
  plans.push_back(wraparound_plan(dec.weights, order, s, delta));
  std::reverse(order.begin(), order.end());
  plans.push_back(wraparound_plan(dec.weights, order, s, delta));
  return plans;
}

// The threshold decomposition, LP re-weighted (weights never grow: the peeled thresholds are a
// feasible LP point). Empty when it would need too many permutations.
Decomposition threshold_decomposition(const Matrix& d, const Support& s, double delta) {
  // Worth it only for sums of few permutations (K close to Δ); elsewhere it needs hundreds of
  // permutations, so stop early, and skip large supports where even Δ steps cost too much.
  // A sum of K permutations has few distinct values (the weights and the sums where permutations
  // collide); a noisy matrix has all values distinct and a threshold step then zeroes only the
  // entries equal to its threshold, so such matrices are not even tried.
  if (s.size() > kThresholdMaxNonzeros) return {};
  std::vector<double> values = s.value;
  std::sort(values.begin(), values.end());
  const auto distinct = std::unique(values.begin(), values.end()) - values.begin();
  if (distinct > 8 * (static_cast<std::ptrdiff_t>(d.max_line_nonzeros()) + 1)) return {};
  Decomposition dec =
      bottleneck_decompose(d, {.delta = delta, .max_permutations = d.max_line_nonzeros() + 1});
  if (dec.perms.empty()) return dec;
  std::vector<double> w = lp_min_total_weights(s, dec.perms);
  if (!w.empty()) {
    dec.weights = std::move(w);
    sort_by_weight(dec);
  }
  return dec;
}

}  // namespace

MatrixResult spectra_improved(const MatrixProblem& p) {
  check_problem(p);
  const Decomposition greedy = spectra_decompose(p.time);
  MatrixResult best = schedule_decomposition(greedy, p, true);  // exactly spectra-ref
  std::vector<Decomposition> decs = {greedy};
  if (Decomposition t = threshold_decomposition(p.time, make_support(p.time), p.delta);
      !t.perms.empty())
    decs.push_back(std::move(t));
  for (const Decomposition& dec : decs)
    for (const SwitchPlan& plan : candidate_plans(dec, p.switches, p.delta)) {
      // A plan's makespan is its largest load (less only if empty pieces end a switch, which
      // then emit no slot): skip building slots for plans clearly no better than the best.
      const double load = *std::max_element(plan.load.begin(), plan.load.end());
      if (load > best.schedule.makespan * (1 + 1e-9)) continue;
      MatrixSchedule sched = best.schedule;
      plan_to_slots(plan, dec, p.delta, sched);
      if (sched.makespan < best.schedule.makespan) {
        best.schedule = std::move(sched);
        best.permutations = static_cast<int>(dec.perms.size());
        best.splits = plan.splits;
      }
    }
  best.schedule.algorithm = "spectra";
  return best;
}

}  // namespace flux
