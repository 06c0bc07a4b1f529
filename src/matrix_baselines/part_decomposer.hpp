#pragma once
// The decomposition a baseline applies to each of its parts. The paper's "Baseline" curves use
// Spectra's sparsity-aware DECOMPOSE with LP weights, the "(Eclipse)" curves Eclipse. The
// baselines take it as a parameter so that they need not know Spectra: the Spectra one is
// supplied from above (matrix_schedulers/compositions.hpp), the Eclipse one is here.
#include <functional>
#include <string>

#include "core/matrix.hpp"
#include "matrix/decomposition.hpp"

namespace flux::matrix_baselines {

struct PartDecomposer {
  std::string name;  // "spectra" or "eclipse": the baseline's result is named after it
  std::function<matrix::Decomposition(const Matrix& part, double delta)> decompose;
};

// Eclipse's greedy decomposition (`delta` sets its slot-length trade-off).
[[nodiscard]] PartDecomposer eclipse_part_decomposer();

// Sorted by weight, largest first; empty for an all-zero part.
[[nodiscard]] matrix::Decomposition decompose_part(const Matrix& m, const PartDecomposer& which,
                                                   double delta);

}  // namespace flux::matrix_baselines
