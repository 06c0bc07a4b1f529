#pragma once
// The Spectra paper's experiment grid: every workload × s × δ (or
// sweep value) × trial, every selected algorithm from the registry, each schedule checked by the
// shared verifier and against the lower bound. Aggregates per cell: mean makespan, mean
// makespan/LB, mean Baseline/algorithm ratio, mean wall time.
//
// Trial t of a workload uses matrix seed `seed + t` for every s and δ (the same matrices across
// the grid, as in the paper) and the same seed for randomised algorithms.
// Cost: cells × trials × (sum of the algorithms' run times + verification O(n^2 + slots)).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "matrix/generators.hpp"

namespace flux::experiments {

struct BenchWorkload {
  std::string name;  // e.g. "synthetic", "gpt32-noisy", "moe64-zipf", "sweep-flows"
  std::string kind;  // generator kind (matrix/generators.hpp)
  matrix::GeneratorOptions options;
  // Empty: the x axis is δ. "flows" (flows per port, 1/4 large) or "small-share" (share of the
  // small flows): the x axis is that parameter, at BenchGrid::sweep_delta.
  std::string sweep;
  std::vector<double> sweep_values;
};

struct BenchGrid {
  std::vector<BenchWorkload> workloads;
  std::vector<int> switches = {4, 8, 16};
  std::vector<double> deltas = {0.01, 0.02, 0.04, 0.08};
  double sweep_delta = 0.04;
  int trials = 3;
  std::uint64_t seed = 1;
  std::vector<std::string> algorithms;  // registry names; the baseline must be among them
  std::string baseline = "baseline";
};

// One (workload, x, s, δ, algorithm) cell, means over the trials.
struct BenchCell {
  std::string workload;
  double x = 0.0;  // δ, or the sweep value
  int switches = 0;
  double delta = 0.0;
  std::string algorithm;
  int trials = 0;
  double makespan = 0.0;
  double lower_bound = 0.0;  // the best valid bound for the schedule's reconfiguration model
  // Each bound of matrix/bounds.hpp (LB3: all-stop only).
  double lb1 = 0.0, lb2 = 0.0, lb3 = 0.0, lb4 = 0.0;
  double makespan_over_lb = 0.0;
  double baseline_ratio = 0.0;  // mean of baseline makespan / this algorithm's makespan
  double seconds = 0.0;         // mean wall time of one run
  double permutations = 0.0;
};

struct BenchResult {
  std::vector<BenchCell> cells;
  long long schedules = 0;            // schedules produced and verified
  std::vector<std::string> failures;  // verifier rejections or LB > makespan (should be empty)
};

// Workloads of the paper's figures: synthetic n = 100, GPT-32/64/128 clean and noisy,
// MoE-64 Dirichlet and Zipf, the flows-per-port and small-share sweeps, plus the two families
// where Spectra is furthest from its bounds: random sparse n = 50 of density 0.2 ("sparse50")
// and synthetic n = 64 with wide flows, 8 large + 24 small per port ("synthetic64-wide").
// `quick` keeps n = 100 synthetic, GPT-32 clean and noisy, MoE-64 Dirichlet and three points of
// each sweep.
[[nodiscard]] std::vector<BenchWorkload> paper_workloads(bool quick);

// The algorithms of the bench by default: every registered one.
[[nodiscard]] std::vector<std::string> default_bench_algorithms();

// Reports a stage of all (workload, x, s, δ, trial) runs, and within it one stage per
// (workload, x) group.
[[nodiscard]] BenchResult run_matrix_bench(const BenchGrid& grid,
                                           Progress& progress = no_progress());

// Mean over cells of `baseline_ratio` for `algorithm` in `workload`, restricted to the given s
// and x values (empty = all): the paper's averaged Baseline/Spectra. NaN if no cell matches.
[[nodiscard]] double average_baseline_ratio(const BenchResult& r, const std::string& workload,
                                            const std::string& algorithm,
                                            const std::vector<int>& switches = {},
                                            const std::vector<double>& xs = {});

}  // namespace flux::experiments
