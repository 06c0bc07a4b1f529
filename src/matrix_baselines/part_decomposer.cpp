#include "matrix_baselines/part_decomposer.hpp"

#include "matrix_baselines/eclipse.hpp"

namespace flux::matrix_baselines {

PartDecomposer eclipse_part_decomposer() {
  return {"eclipse",
          [](const Matrix& m, double delta) { return eclipse_decomposition(m, {.delta = delta}); }};
}

matrix::Decomposition decompose_part(const Matrix& m, const PartDecomposer& which, double delta) {
  if (m.max_entry() <= 0.0) return {};
  matrix::Decomposition dec = which.decompose(m, delta);
  sort_by_weight(dec);
  return dec;
}

}  // namespace flux::matrix_baselines
