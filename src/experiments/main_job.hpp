#pragma once
// The matrix half of `flux run`: Spectra against the Spectra paper's baseline on the built-in
// matrices (synthetic n = 100 and GPT-32, one trial), s in {4, 16}, δ in {.01, .02, .04, .08},
// through the matrix bench runner (every schedule verified and checked against the bound).
#include <cstdint>
#include <string>

#include "experiments/matrix_bench.hpp"

namespace flux::experiments {

// `all`: every registered algorithm instead of spectra, spectra-ref and baseline.
[[nodiscard]] BenchGrid main_job_grid(std::uint64_t seed, bool all);
// One row per (workload, s, δ): the bound, then makespan and makespan/LB per algorithm, then
// baseline/spectra when both ran; and the mean of that ratio per workload.
// What each column of main_job_table means.
[[nodiscard]] std::string main_job_legend();
[[nodiscard]] std::string main_job_table(const BenchGrid& g, const BenchResult& r);

}  // namespace flux::experiments
