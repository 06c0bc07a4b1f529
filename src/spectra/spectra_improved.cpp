// `spectra`: the improved default (reference/spectra.md §2, issue item 5).
//
// Portfolio over decompositions × schedulers, every candidate a complete schedule, the shortest
// kept. Candidate 0 is exactly `spectra-ref` (LP-weighted greedy + LPT + reference EQUALIZE), so
// the result is never worse than the reference on any instance.
//   decompositions: greedy with LP weights, greedy with stretch weights, and the threshold-matching
//                   decomposition (bottleneck_decompose.hpp, LP re-weighted) when it needs at most
//                   2Δ + 8 permutations;
//   schedulers:     LPT + reference EQUALIZE followed by the improved EQUALIZE, LPT + improved
//                   EQUALIZE, wrap-around split with bisected makespan (largest-first and
//                   smallest-first order).
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
Decomposition threshold_decomposition(const Matrix& d, double delta, int delta_max) {
  Decomposition dec =
      bottleneck_decompose(d, {.delta = delta, .max_permutations = 2 * delta_max + 8});
  if (dec.perms.empty()) return dec;
  std::vector<double> w = lp_min_total_weights(make_support(d), dec.perms);
  if (!w.empty()) {
    dec.weights = std::move(w);
    sort_by_weight(dec);
  }
  return dec;
}

}  // namespace

MatrixResult spectra_improved(const MatrixProblem& p) {
  check_problem(p);
  const DecomposeVariants greedy = spectra_decompose_variants(p.time);
  MatrixResult best = schedule_decomposition(greedy.lp, p, true);  // exactly spectra-ref
  std::vector<Decomposition> decs = {greedy.lp, greedy.stretch};
  if (Decomposition t = threshold_decomposition(p.time, p.delta, p.time.max_line_nonzeros());
      !t.perms.empty())
    decs.push_back(std::move(t));
  for (const Decomposition& dec : decs)
    for (const SwitchPlan& plan : candidate_plans(dec, p.switches, p.delta)) {
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
