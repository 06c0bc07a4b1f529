#include "spectra/spectra.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "matrix/switch_plan.hpp"

namespace flux {

MatrixResult schedule_decomposition(const Decomposition& dec, const MatrixProblem& p,
                                    bool equalize) {
  SwitchPlan plan = lpt_assign(dec.weights, p.switches, p.delta);
  if (equalize) equalize_reference(plan, p.delta);
  return plan_result(plan, dec, p);
}

MatrixResult plan_result(const SwitchPlan& plan, const Decomposition& dec, const MatrixProblem& p) {
  MatrixResult r;
  r.schedule.n = p.time.n();
  r.schedule.switches = p.switches;
  r.schedule.delta = p.delta;
  plan_to_slots(plan, dec, p.delta, r.schedule);
  r.permutations = static_cast<int>(dec.perms.size());
  r.splits = plan.splits;
  return r;
}

MatrixResult spectra_reference(const MatrixProblem& p, const SpectraOptions& opt) {
  check_problem(p);
  const Decomposition dec =
      spectra_decompose(p.time, {.weights = opt.weights, .kernel = opt.kernel});
  MatrixResult r = schedule_decomposition(dec, p, opt.equalize);
  r.schedule.algorithm = "spectra-ref";
  return r;
}

}  // namespace flux
