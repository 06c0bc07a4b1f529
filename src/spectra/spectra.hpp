#pragma once
// Spectra (arXiv 2603.07373): DECOMPOSE -> SCHEDULE -> EQUALIZE on s
// parallel all-stop OCSes. `spectra_reference` follows the reference exactly (its only freedom:
// ties between optimal assignments); `spectra_improved` (spectra_improved.cpp) is a portfolio that
// contains the reference's schedule as a candidate. Cost: dominated by DECOMPOSE (Δ sparse
// assignments, decompose.hpp); LPT is O(K log s), EQUALIZE O(splits · (s + pieces)).
#include "matrix/algorithm.hpp"
#include "matrix/switch_plan.hpp"
#include "spectra/decompose.hpp"

namespace flux::spectra {

struct SpectraOptions {
  WeightMethod weights = WeightMethod::lp;
  bool equalize = true;                                   // false = the "no equalization" ablation
  AssignmentKernel kernel = AssignmentKernel::automatic;  // DECOMPOSE's; all give optimal steps
  int reduction_steps = 2;  // DECOMPOSE's row reduction budget (DecomposeOptions::reduction_steps)
};

// `spectra-ref`: the paper's algorithm exactly as its authors' code runs it.
[[nodiscard]] matrix::MatrixResult spectra_reference(const matrix::MatrixProblem& p,
                                                     const SpectraOptions& opt = {});

// `spectra`: the improved default; never worse than spectra_reference on the same instance.
[[nodiscard]] matrix::MatrixResult spectra_improved(const matrix::MatrixProblem& p);

}  // namespace flux::spectra
