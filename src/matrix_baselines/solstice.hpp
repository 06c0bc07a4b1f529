#pragma once
// Solstice (Liu et al., CoNEXT'15) as a makespan scheduler: QuickStuff the
// demand (padding existing non-zeros in random order first), then BigSlice: with a threshold t,
// starting at the largest power of two <= the largest entry, peel a perfect matching that uses only
// entries >= t for the duration of its smallest entry; when no such matching exists, halve t.
// The permutations are then put onto the switches with LPT (no splitting).
//
// Exact integer arithmetic as for BvN (integer_demand.hpp); at t = 1 BigSlice is plain BvN, so it
// always terminates with sum_k w_k P_k = the stuffed matrix. Power-of-two thresholds make it a
// cheap approximation of a bottleneck (max-min) decomposition: fewer, longer slices than BvN.
// Time O(K·n + repairs + log(max entry) Hopcroft–Karp runs).
#include <cstdint>

#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"

namespace flux::matrix_baselines {

// Sorted by weight, largest first. `seed` orders QuickStuff's padding pass. `byte_time` > 0
// counts the demand in whole bytes (as Sunflow's simulator does: integer byte demand and integer
// thresholds), so every slice lasts at least one byte; 0 uses the fine quantum of L / 2^40.
[[nodiscard]] matrix::Decomposition solstice_decomposition(const Matrix& d, std::uint64_t seed,
                                                           double byte_time = 0.0);

[[nodiscard]] matrix::MatrixResult solstice_schedule(const matrix::MatrixProblem& p,
                                                     const matrix::MatrixRunOptions& opt);

}  // namespace flux::matrix_baselines
