#pragma once
// The decomposition a baseline applies to each of its parts: Spectra's sparsity-aware DECOMPOSE
// with LP weights (what the paper's "Baseline" curves use) or Eclipse (the "(Eclipse)" curves).
#include <string>

#include "core/matrix.hpp"
#include "matrix/decomposition.hpp"

namespace flux {

enum class PartDecomposer { spectra, eclipse };

[[nodiscard]] const char* to_string(PartDecomposer d);

// Sorted by weight, largest first. `delta` is used by Eclipse only.
[[nodiscard]] Decomposition decompose_part(const Matrix& m, PartDecomposer which, double delta);

}  // namespace flux
