#include "matrix_algorithms/part_decomposer.hpp"

#include "matrix_algorithms/eclipse.hpp"
#include "matrix_algorithms/schedule_helpers.hpp"

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
