#pragma once
// Spectra (arXiv 2603.07373): DECOMPOSE -> SCHEDULE -> EQUALIZE on s parallel all-stop OCSes.
#include "matrix/algorithm.hpp"
#include "spectra/decompose.hpp"

namespace flux {

struct SpectraOptions {
  WeightMethod weights = WeightMethod::lp;
  bool equalize = true;  // false = the "no equalization" ablation
};

// `spectra-ref`: the reference algorithm exactly as specified (§2).
[[nodiscard]] MatrixResult spectra_reference(const MatrixProblem& p,
                                             const SpectraOptions& opt = {});

// `spectra`: the improved default; never worse than spectra_reference on the same instance.
[[nodiscard]] MatrixResult spectra_improved(const MatrixProblem& p);

// Throws InputError for s < 1, δ < 0 or non-finite, negative or NaN demand entries.
void check_problem(const MatrixProblem& p);

// SCHEDULE + EQUALIZE + timeline on a given decomposition (shared by the ablations).
[[nodiscard]] MatrixResult schedule_decomposition(const Decomposition& dec, const MatrixProblem& p,
                                                  bool equalize);

}  // namespace flux
