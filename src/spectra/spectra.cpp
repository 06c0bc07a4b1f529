#include "spectra/spectra.hpp"

#include "matrix/switch_plan.hpp"

namespace flux::spectra {

matrix::MatrixResult spectra_reference(const matrix::MatrixProblem& p, const SpectraOptions& opt) {
  const matrix::Decomposition dec = spectra_decompose(
      make_checked_support(p),
      {.weights = opt.weights, .kernel = opt.kernel, .reduction_steps = opt.reduction_steps});
  matrix::MatrixResult r = schedule_decomposition(dec, p, opt.equalize);
  r.schedule.algorithm = "spectra-ref";
  return r;
}

}  // namespace flux::spectra
