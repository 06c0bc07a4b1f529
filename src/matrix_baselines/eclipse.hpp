#pragma once
// Eclipse (Bojja Venkatakrishnan, Alizadeh, Viswanath, SIGMETRICS'16):
// greedy submodular decomposition. Each step picks the threshold α among the distinct residual
// values that maximises (max-weight matching value of min(Drem, α)) / (α + δ) — by the binary
// search of the Spectra authors' code, which assumes that ratio is unimodal in α — and serves
// min(Drem, α) on that matching.
//
// Guards the reference code lacks: a single distinct value (every entry equal, e.g. a dense
// constant matrix) is taken directly instead of spinning; a step cap (nnz + n) after which the
// threshold is the largest residual entry, so each further step zeroes an entry and the loop
// ends. The cap matters as δ -> 0: the ratio then favours the smallest thresholds and each step
// serves only a sliver of many entries (MoE-32 with δ = 1e-4: > 7000 steps uncapped); with
// δ >= 0.01 the paper's instances need 25-180 steps, far below it.
// Deterministic (the assignment solver breaks ties by index).
//
// Cost per step: O(log nnz) sparse assignments on the residual's support with implicit cost-0
// fillers (matching/completion_assignment.hpp), warm-started with the previous column duals
// (2-4x faster than cold starts on dense 64-port MoE matrices).
#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"

namespace flux::matrix_baselines {

struct EclipseOptions {
  double delta = 0.0;  // reconfiguration delay, in D's time unit (the ratio's denominator)
};

// Permutations sorted by weight, largest first; sum_k w_k P_k >= D elementwise.
[[nodiscard]] matrix::Decomposition eclipse_decomposition(const Matrix& d,
                                                          const EclipseOptions& opt);

// `eclipse`: the decomposition put onto the switches with LPT (no splitting).
[[nodiscard]] matrix::MatrixResult eclipse_schedule(const matrix::MatrixProblem& p);

}  // namespace flux::matrix_baselines
