#pragma once
// A decomposition of a demand matrix into weighted permutations: what every matrix scheduler
// (Spectra's DECOMPOSE, BvN, Eclipse, Solstice, the baselines' parts) produces before the
// permutations are placed on switches.
#include <vector>

namespace flux::matrix {

// perm[i] = output of input i (a full permutation; entries where D is zero are idle fillers).
using Permutation = std::vector<int>;

struct Decomposition {
  std::vector<Permutation> perms;
  std::vector<double> weights;  // durations, same time unit as D
};

// Stable sort of (perm, weight) pairs by weight, descending.
void sort_by_weight(Decomposition& dec);

// Removes the trailing permutations of weight <= 0 (all of them once sorted by weight).
void drop_zero_weights(Decomposition& dec);

}  // namespace flux::matrix
