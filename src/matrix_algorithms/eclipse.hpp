#pragma once
// Eclipse (Bojja Venkatakrishnan, Alizadeh, Viswanath, SIGMETRICS'16; reference/spectra.md §4.2):
// greedy submodular decomposition. Each step picks the threshold α among the distinct residual
// values that maximises (max-weight matching value of min(Drem, α)) / (α + δ) — by the binary
// search of the reference code, which assumes that ratio is unimodal in α — and serves
// min(Drem, α) on that matching.
//
// Guards the reference code lacks: a single distinct value (every entry equal, e.g. a dense
// constant matrix) is taken directly instead of spinning; a step cap (8·nnz + n) after which the
// threshold is the largest residual entry, so each further step zeroes an entry and the loop
// ends. Deterministic (the assignment solver breaks ties by index).
//
// Cost per step: O(log nnz) sparse assignments on the residual's support with implicit cost-0
// fillers (matching/completion_assignment.hpp).
#include "matrix/algorithm.hpp"
#include "spectra/decompose.hpp"

namespace flux {

struct EclipseOptions {
  double delta = 0.0;  // reconfiguration delay, in D's time unit (the ratio's denominator)
};

// Permutations sorted by weight, largest first; sum_k w_k P_k >= D elementwise.
[[nodiscard]] Decomposition eclipse_decomposition(const Matrix& d, const EclipseOptions& opt);

// `eclipse`: the decomposition put onto the switches with LPT (no splitting).
[[nodiscard]] MatrixResult eclipse_schedule(const MatrixProblem& p);

}  // namespace flux
