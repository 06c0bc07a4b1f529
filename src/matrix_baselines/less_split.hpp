#pragma once
// LESS split: cut D into s parts whose row and column sums are fixed
// shares of D's, each part much sparser than D/s — the first step of the Spectra paper's baseline.
//
// One cut with share a (0 < a < 1): start from D1 = a·D; while the bipartite graph of "loose"
// entries (0 < D1 < D) has a cycle, push flow ±η around it with alternating signs (row and column
// sums of D1 do not change) until one entry becomes tight (0 or D). At the end the loose entries
// form a forest, so D1 and D − D1 share at most 2n − 1 entries. Cycles are found by depth-first
// search from start vertices in random order (neighbours in increasing index), the first sign is
// random: seeded, deterministic.
// s parts: recursive cuts with shares ⌊s/2⌋/s and ⌈s/2⌉/s (equal halves when s is a power of two,
// the reference's case; the unequal shares for other s are our extension).
//
// Each push makes an entry tight, so a cut needs at most nnz cycles; ⌈log2 s⌉ levels of cuts.
#include <vector>

#include "core/matrix.hpp"
#include "core/rng.hpp"

namespace flux::matrix_baselines {

// How cycles are searched: `restart` = a fresh depth-first search after every push, as the
// reference code (O(n + nnz) per cycle); `resume` = one search that continues after each push
// (O(n + nnz + total cycle length) per cut, for large inputs); `automatic` = restart while
// nnz · (2n + 2 nnz) <= 2e8 (every matrix of the paper's grid), resume beyond. Both leave a forest
// of shared entries; they find different cycles, so the parts differ.
enum class CycleSearch { automatic, restart, resume };

// D1 with row/column sums = share · D's (exact up to rounding), 0 <= D1 <= D. 0 < share < 1.
[[nodiscard]] Matrix alternating_cycle_cut(const Matrix& d, double share, Rng& rng,
                                           CycleSearch search = CycleSearch::automatic);

// `parts` >= 1 matrices summing to D; part k carries 1/parts of every line sum.
[[nodiscard]] std::vector<Matrix> less_split(const Matrix& d, int parts, Rng& rng);

}  // namespace flux::matrix_baselines
