#include "matrix_baselines/part_decomposer.hpp"

#include "matrix_baselines/eclipse.hpp"
#include "matrix_baselines/schedule_helpers.hpp"
#include "spectra/decompose.hpp"

namespace flux {

const char* to_string(PartDecomposer d) {
  return d == PartDecomposer::spectra ? "spectra" : "eclipse";
}

Decomposition decompose_part(const Matrix& m, PartDecomposer which, double delta) {
  if (m.max_entry() <= 0.0) return {};
  Decomposition dec = which == PartDecomposer::spectra
                          ? spectra_decompose(m, {.weights = WeightMethod::lp})
                          : eclipse_decomposition(m, {.delta = delta});
  sort_by_weight(dec);
  return dec;
}

}  // namespace flux
