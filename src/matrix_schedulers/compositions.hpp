#pragma once
// The matrix algorithms that combine a baseline with Spectra. They live here, above both, so that
// matrix_baselines and spectra stay strict siblings that share only matrix/.
#include <string_view>

#include "matrix/algorithm.hpp"
#include "matrix_baselines/part_decomposer.hpp"

namespace flux::matrix_schedulers {

// Spectra's DECOMPOSE with LP weights, what the paper's baseline applies to each part.
[[nodiscard]] matrix_baselines::PartDecomposer spectra_part_decomposer();

// "eclipse" -> Eclipse's decomposition, anything else -> Spectra's (the options table of the
// `baseline` entry allows only those two names).
[[nodiscard]] matrix_baselines::PartDecomposer part_decomposer(std::string_view name);

// `per-port`: the not-all-stop greedy on each switch's share of Spectra's reference schedule.
[[nodiscard]] matrix::MatrixResult per_port_spectra(const matrix::MatrixProblem& p);

}  // namespace flux::matrix_schedulers
