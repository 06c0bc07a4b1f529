#pragma once
// McNaughton-style wrap-around split of a fixed decomposition over s all-stop switches.
//
// For a target makespan T, fill switch 0 with permutations in the given order, each slot paying
// δ; a permutation that does not fit is cut: the part that fits ends switch m, the rest opens
// switch m+1 (its own δ). T is feasible when everything fits on s switches. Bisection over T finds
// the smallest feasible T (to 1e-12 relative) between the trivial bound (Σw + Kδ)/s and the
// one-switch schedule Σw + Kδ. Each permutation is cut at most at switch boundaries, so there are
// at most s-1 splits, and two pieces of one permutation never share a switch.
// Cost: O(K) per feasibility test, O(K · 60) in total.
#include <vector>

#include "matrix/switch_plan.hpp"

namespace flux::spectra {

// `order` lists permutation ids (indices into weights) in filling order.
[[nodiscard]] matrix::SwitchPlan wraparound_plan(const std::vector<double>& weights,
                                                 const std::vector<int>& order, int switches,
                                                 double delta);

}  // namespace flux::spectra
