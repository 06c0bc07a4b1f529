#pragma once
// DECOMPOSE (the Spectra paper's first step): cover every non-zero of D with exactly Δ weighted
// permutations, Δ = the largest number of non-zeros in a row or column.
//
// Greedy max-weight matching decomposition with a König-style edge-colouring constraint: at every
// step each row/column that still has the most uncovered non-zeros must take a new one (the 1e9
// costs of the reference are forbidden pairs here), the rest prefer large remaining demand; the
// smallest positive remaining demand on the matching is peeled off. Weights are then re-fitted by
// the LP of lp_weights.hpp or by the reference's stretch pass.
//
// Kernels: `sparse` solves each step cold (v = 0) with completion_assignment on the support only
// (fillers implicit, 1e9 pairs forbidden): greedy + augmenting row reduction match most rows,
// Dijkstra searches the rest. Its buffers live across the steps (CompletionWorkspace);
// `sparse_fresh` is the same solver built anew at every step (identical output, a benchmark
// baseline). `sparse_warm` re-solves every step after the first from the previous step's duals
// (CompletionWorkspace::resolve: between steps costs only rise and pairs only disappear, so the
// duals stay feasible). Warm duals cut the Dijkstra searches 4-10x where ARR leaves many rows free
// (irregular or dense supports: random sparse, MoE) but double them on near-regular supports
// (synthetic), where each step deletes the previous matching outright. `automatic` (default) runs
// cold and, when a cold step needed more than n/7 searches, solves the next step both ways and
// goes warm if warm took < 3/4 of the cold work (counted, so deterministic; one probe per 8 steps).
// Once, on the step after the first cold one with any search, it also solves the step with the
// long row reduction (16 steps per row) and keeps that budget for the later steps if it cost
// < 3/4 as much (Dijkstra edges weighted 4x ARR's, their measured ratio); with that budget it
// probes a warm start once (random sparse supports go warm, near-regular ones stay cold).
// Where it stays cold with the default budget its output is the cold kernel's bit for bit;
// elsewhere every step is still optimal, so on real-valued supports the peeled demands are the
// same and only idle fillers and exact ties may differ. Worst case O(Δ · n · nnz · log n). `dense`
// builds the reference's n x n cost matrix with 1e9 entries and runs the O(n^3) Hungarian: O(Δ ·
// n^3), kept for cross-checks and benchmarks. All give optimal assignments at every step; only ties
// may differ.
#include <vector>

#include "core/matrix.hpp"
#include "matrix/decomposition.hpp"
#include "spectra/support.hpp"

namespace flux::spectra {

enum class WeightMethod { lp, stretch };
enum class AssignmentKernel { automatic, sparse, sparse_fresh, sparse_warm, dense };

struct DecomposeOptions {
  WeightMethod weights = WeightMethod::lp;
  AssignmentKernel kernel = AssignmentKernel::automatic;
  // Sparse kernels: augmenting row reduction steps per row before the Dijkstra searches
  // (matching::CompletionOptions). 2 = the reference's schedules as pinned; any value gives an
  // optimal assignment at every step but may break ties (idle fillers) differently. 16 is the
  // fast variant for large near-regular supports (see docs/results/spectra.md §8), which the
  // automatic kernel also switches to by itself where a probe shows it pays.
  int reduction_steps = 2;
};

// Invariant on return: sum_l weights[l] * P_l >= D elementwise (up to 1e-9 relative); weights
// sorted descending.
[[nodiscard]] matrix::Decomposition spectra_decompose(const Matrix& d,
                                                      const DecomposeOptions& opt = {});
// The same on a support already built from D (make_support(D)).
[[nodiscard]] matrix::Decomposition spectra_decompose(const Support& s,
                                                      const DecomposeOptions& opt = {});

}  // namespace flux::spectra
