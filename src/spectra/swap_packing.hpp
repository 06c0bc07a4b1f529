#pragma once
// Whole permutations on switches for the least makespan (P||Cmax with δ per slot): LPT, then
// moves and swaps between the busiest switch and the others.
//
// LPT puts the last of K = 2s + 1 pieces on a switch that already holds two, where an optimum
// holds three light pieces on one switch and pairs every heavy piece with a light one (random
// sparse supports recoloured by kempe_decompose.hpp at δ = 0.08: 17 classes on 8 switches). The
// local search repeats the best of: move one piece off the busiest switch, or swap one of its
// pieces with a lighter one elsewhere, while that lowers the busiest switch without lifting the
// other above it; at most 8 (s + K) steps. No piece is split: EQUALIZE can do that afterwards.
// Cost O(K²) per step.
#include <vector>

#include "matrix/switch_plan.hpp"

namespace flux::spectra {

// `weights` sorted descending (lpt_assign's precondition).
[[nodiscard]] matrix::SwitchPlan swap_packed_assign(const std::vector<double>& weights,
                                                    int switches, double delta);

}  // namespace flux::spectra
