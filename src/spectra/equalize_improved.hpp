#pragma once
// An EQUALIZE that goes where the paper's EQUALIZE stops:
//   * two pieces of one permutation on one switch are merged (one δ instead of two);
//   * between the most and the least loaded switch it considers every piece of the busy switch,
//     not only the largest, and both moves: split it so the two loads meet, or move it whole
//     (saving its δ, and the receiver's δ too if it already plays that permutation);
//   * it applies the move that lowers the busy switch the most, and stops only when no move
//     lowers it by more than 1e-9 relative, or after 8·(s + pieces) moves (with δ = 0 splits are
//     free and the loop would otherwise converge only geometrically).
// Each move strictly lowers the busiest switch without raising the receiver above it, so the
// makespan never increases. Cost per move O(pieces on the busy switch + s).
#include "matrix/switch_plan.hpp"

namespace flux::spectra {

// Merges duplicate pieces of a permutation on the same switch; returns the δ saved in total.
double merge_duplicate_pieces(matrix::SwitchPlan& plan, double delta);

void equalize_improved(matrix::SwitchPlan& plan, double delta);

// Makespan of LPT + equalize_improved on these weights: how the decompositions with more than Δ
// permutations (pool, column generation) compare their candidate sizes.
[[nodiscard]] double lpt_equalized_length(const std::vector<double>& weights, int switches,
                                          double delta);

}  // namespace flux::spectra
