#include "spectra/spectra.hpp"

#include "matrix/switch_plan.hpp"

namespace flux {

MatrixResult spectra_reference(const MatrixProblem& p, const SpectraOptions& opt) {
  check_problem(p);
  const Decomposition dec =
      spectra_decompose(p.time, {.weights = opt.weights, .kernel = opt.kernel});
  MatrixResult r = schedule_decomposition(dec, p, opt.equalize);
  r.schedule.algorithm = "spectra-ref";
  return r;
}

}  // namespace flux
