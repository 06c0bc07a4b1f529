#pragma once
// Threshold-matching decomposition (Eclipse-style, δ-aware), the alternative DECOMPOSE used by
// the improved `spectra` when the demand is a sum of a few permutations.
//
// Each step picks a threshold t among (up to 24) quantiles of the distinct remaining values and a
// maximum matching M_t on the entries with remaining demand >= t, maximising t·|M_t| / (t + δ)
// (demand served per unit of slot time including its reconfiguration); every matched entry is
// reduced by t. On D = Σ_k w_k P_k with distinct weights this peels the permutations one by one,
// where the reference's max-weight greedy mixes them. Matchings are grown from the previous,
// higher threshold (Hopcroft–Karp with an initial matching), so one step costs about
// O(m √n) plus 24 cheap extensions. Unmatched lines are completed with idle fillers.
// Returns an empty decomposition as soon as it is certain to need more than `max_permutations`
// (steps so far + the largest number of non-zeros left in a line, since a step zeroes at most
// one entry per line).
#include "core/matrix.hpp"
#include "spectra/decompose.hpp"

namespace flux::spectra {

struct BottleneckOptions {
  double delta = 0.0;         // reconfiguration delay used in the step objective
  int max_permutations = 64;  // give up beyond this (the candidate is then skipped)
  int thresholds = 24;        // quantiles tried per step
};

// Weights are the peeled thresholds (coverage holds); sorted descending.
[[nodiscard]] matrix::Decomposition bottleneck_decompose(const Matrix& d,
                                                         const BottleneckOptions& opt);
// The same on D's support (make_support(D)), already built by the caller: the result is the
// same, without two more O(n²) passes over D.
[[nodiscard]] matrix::Decomposition bottleneck_decompose(const Support& s,
                                                         const BottleneckOptions& opt);

}  // namespace flux::spectra
