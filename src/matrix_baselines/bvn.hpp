#pragma once
// Birkhoff–von Neumann decomposition: stuff D to equal line sums, then peel
// perfect matchings of the support, each weighted by its smallest entry, until nothing is left.
//
// Exact: the stuffed matrix is held in integers (integer_demand.hpp), so sum_k w_k P_k rebuilds
// it exactly and every step is guaranteed a perfect matching (Birkhoff/König); weights convert
// back to time with the quantum (over-service per entry < 2^-40 of the largest line sum, or none
// for a byte demand, which is counted in whole bytes).
// Fast: each peel zeroes at least one entry; only the rows that lost their entry are re-matched
// (threshold_matching.hpp), not n^2 matchings from scratch.
// K <= nnz(stuffed) - 2n + 2 permutations; sum of weights = the largest line sum L.
// Time O(K·n + repairs); n = 512 dense (K ~ 260k) in seconds (bench/matrix_baselines_bench.cpp).
//
// `bvn` schedules the permutations with Spectra's SCHEDULE (LPT with δ) and no splitting.
#include <functional>
#include <vector>

#include "core/matrix.hpp"
#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"

namespace flux::matrix_baselines {

// Receives each permutation (perm[i] = column of row i) and its weight in D's time unit.
using PermutationSink = std::function<void(const std::vector<int>& perm, double weight)>;

struct BvnStats {
  int permutations = 0;
  Matrix stuffed;  // the matrix that sum_k w_k P_k rebuilds, >= D elementwise
};

// Streams the decomposition to `sink` (a dense n = 512 decomposition has ~n^2 permutations, too
// many to keep when only statistics are wanted). Entries of `d` must be finite and >= 0.
// `byte_time` > 0 counts the demand in whole bytes (quantize_demand), 0 uses the fine quantum.
[[nodiscard]] BvnStats bvn_decompose(const Matrix& d, const PermutationSink& sink,
                                     double byte_time = 0.0);

// The decomposition collected, sorted by weight descending.
[[nodiscard]] matrix::Decomposition bvn_decomposition(const Matrix& d, double byte_time = 0.0);

[[nodiscard]] matrix::MatrixResult bvn_schedule(const matrix::MatrixProblem& p);

}  // namespace flux::matrix_baselines
