#include "matrix_schedulers/compositions.hpp"

#include <vector>

#include "matrix_baselines/integer_demand.hpp"
#include "matrix_baselines/per_port_greedy.hpp"
#include "spectra/decompose.hpp"
#include "spectra/spectra.hpp"

namespace flux::matrix_schedulers {

matrix_baselines::PartDecomposer spectra_part_decomposer() {
  return {"spectra", [](const Matrix& m, double) {
            return spectra::spectra_decompose(m, {.weights = spectra::WeightMethod::lp});
          }};
}

matrix_baselines::PartDecomposer part_decomposer(std::string_view name) {
  return name == "eclipse" ? matrix_baselines::eclipse_part_decomposer()
                           : spectra_part_decomposer();
}

matrix::MatrixResult per_port_spectra(const matrix::MatrixProblem& p) {
  const matrix::MatrixResult plan = spectra::spectra_reference(p);
  std::vector<Matrix> loads = matrix_baselines::per_switch_load(p.time, plan.schedule);
  matrix_baselines::apportion_whole_units(loads, p.time, p.byte_time);
  return matrix_baselines::per_port_result("per-port", p, plan, loads);
}

}  // namespace flux::matrix_schedulers
