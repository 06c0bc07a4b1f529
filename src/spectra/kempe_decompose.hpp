#pragma once
// A cover of D by a given number K of permutations with a small total weight: a max edge-colouring
// of D's support, improved by pairwise Kempe recolouring.
//
// Give every non-zero one of K colours so that each colour class is a matching; a class served by
// one permutation needs the weight of its largest entry, so the cover's total is at most the sum
// of the classes' maxima (the LP re-weighting of lp_weights.hpp can only lower it). DECOMPOSE
// (K = Δ) picks its classes greedily, step by step; where its permutations overshoot the busiest
// line (random sparse supports: Σ w ≈ 1.5 L_max), the heavy and light entries of different lines
// share classes. For two classes a and b, the entries coloured a or b form alternating paths and
// cycles, and swapping the two colours along any of them keeps both classes matchings. The best
// swap set for the pair is found exactly in one pass: the heaviest entry of the two classes sets
// one class's maximum whatever is swapped, so every other path or cycle independently puts its
// lighter side into the other class. Pairs are visited until a full pass improves nothing.
//
// Cost: O(n) per pair, K²/2 pairs per pass, at most `max_passes` passes and `max_work` pair-row
// visits in all (K² n / 2 per pass: about 7 000 on random sparse n = 50).
#include <vector>

#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

struct KempeOptions {
  int max_passes = 32;
  double max_work = 1e8;  // pair-row visits; fewer passes on large K and n, none beyond it
};

// `start`'s permutations (each non-zero of `s` in at least one) give the K classes: an entry
// takes the heaviest permutation that serves it. Returns the improved classes completed to
// permutations by idle fillers, weighted by their maxima (each class's largest entry), sorted
// descending, empty classes dropped. Empty if `start` does not cover D or one pass would exceed
// `max_work`.
[[nodiscard]] matrix::Decomposition kempe_decompose(const Support& s,
                                                    const matrix::Decomposition& start,
                                                    const KempeOptions& opt = {});

}  // namespace flux::spectra
