#pragma once
// Output of `flux matrix bench`: the text table, the CSV and the SVG figures of a bench result.
#include <string>
#include <string_view>

#include "experiments/matrix_bench.hpp"

namespace flux::experiments {

// Per workload: one row per (s, x) with the mean LB1, LB2 and LB3, each algorithm's mean makespan
// and, for `spectra` and `spectra-ref` when run, their mean makespan / best valid bound (LB3 for
// all-stop schedules); then the averaged Baseline/Spectra ratios (the paper's averaging: s in
// {4, 16} x the δ grid, when present).
[[nodiscard]] std::string bench_table(const BenchGrid& grid, const BenchResult& r);

// One line per cell (workload, x, s, δ, algorithm) with every aggregate.
[[nodiscard]] std::string bench_csv(const BenchResult& r);

// A CSV written by bench_csv read back, with the grid it implies: its workloads (looked up among
// the paper's by name, for their x axis), s values and algorithms in first-seen order, the δ of
// its sweeps. An InputError naming `file`, the line and the column for anything else.
struct BenchCsv {
  BenchGrid grid;
  BenchResult result;
};
[[nodiscard]] BenchCsv read_bench_csv(std::string_view text, const std::string& file);

// Makespan against x for one workload and s: a line per algorithm, the LB dashed.
[[nodiscard]] std::string bench_svg(const BenchGrid& grid, const BenchResult& r,
                                    const BenchWorkload& w, int switches);

}  // namespace flux::experiments
