#pragma once
// A decomposition shaped for a target makespan: `count` permutations of weight `cap` each, then
// DECOMPOSE on what they leave.
//
// Where DECOMPOSE's permutations overshoot the busiest line (random sparse supports), the
// schedules of the other decompositions leave their single-slot switches partly idle: a
// permutation whose entries are all covered early cannot use the rest of its switch, while the
// switches with more slots set the makespan (docs/results/spectra.md §9.2). A schedule of
// makespan T with k slots per switch has room for permutations of about cap = (T − kδ) / k each;
// the permutation that makes most use of such a slot serves the most residual demand, each entry
// counted up to the cap: max Σ_e min(r_e, cap), one max-weight matching (weighted_matching.hpp).
// Peeling `count` = k·s of them (r_e -= cap along each) fills the switches; DECOMPOSE (greedy,
// LP-weighted) covers the rest. Peeling stops early when nothing is left.
// Returns up to three decompositions: the peeled weights as they are (cap each; the rest with
// DECOMPOSE's weights); the same permutations re-weighted for the least total (lp_weights.hpp);
// and the peeled permutations with DECOMPOSE's classes of the rest recoloured
// (kempe_decompose.hpp), re-weighted likewise (each LP-weighted one omitted if its LP fails).
// All cover D; weights sorted descending, no zeros.
// Cost: `count` sparse assignments, one DECOMPOSE of the residual and its recolouring, two LPs.
#include <vector>

#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

[[nodiscard]] std::vector<matrix::Decomposition> peel_decompose(const Support& s, double cap,
                                                                int count);

}  // namespace flux::spectra
