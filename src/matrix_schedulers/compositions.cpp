#include "matrix_schedulers/compositions.hpp"

#include <vector>

#include "matrix_baselines/integer_demand.hpp"
#include "matrix_baselines/per_port_greedy.hpp"
#include "spectra/decompose.hpp"
#include "spectra/spectra.hpp"

namespace flux {

PartDecomposer spectra_part_decomposer() {
  return {"spectra", [](const Matrix& m, double) {
            return spectra_decompose(m, {.weights = WeightMethod::lp});
          }};
}

PartDecomposer part_decomposer(std::string_view name) {
  return name == "eclipse" ? eclipse_part_decomposer() : spectra_part_decomposer();
}

MatrixResult per_port_spectra(const MatrixProblem& p) {
  const MatrixResult plan = spectra_reference(p);
  std::vector<Matrix> loads = per_switch_load(p.time, plan.schedule);
  apportion_whole_units(loads, p.time, p.byte_time);
  return per_port_result("per-port", p, plan, loads);
}

}  // namespace flux
