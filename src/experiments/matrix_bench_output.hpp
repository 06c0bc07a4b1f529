#pragma once
// Output of `flux matrix bench`: the text table, the CSV and the SVG figures of a bench result.
#include <string>

#include "experiments/matrix_bench.hpp"

namespace flux {

// Per workload: one row per (s, x), the LB and each algorithm's mean makespan, then the averaged
// Baseline/Spectra ratios (the paper's averaging: s in {4, 16} x the δ grid, when present).
[[nodiscard]] std::string bench_table(const BenchGrid& grid, const BenchResult& r);

// One line per cell (workload, x, s, δ, algorithm) with every aggregate.
[[nodiscard]] std::string bench_csv(const BenchResult& r);

// Makespan against x for one workload and s: a line per algorithm, the LB dashed.
[[nodiscard]] std::string bench_svg(const BenchGrid& grid, const BenchResult& r,
                                    const BenchWorkload& w, int switches);

}  // namespace flux
