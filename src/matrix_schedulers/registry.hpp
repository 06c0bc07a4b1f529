#pragma once
// Every matrix scheduler by name: the CLI, the bench and the tests go through this list. An
// algorithm states its options once, in an options table (core/options.hpp); an ablation is a
// preset — a name that fixes some of those options (spectra-noeq is spectra-ref with
// equalize = false) — not a separate implementation.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.hpp"
#include "matrix/algorithm.hpp"

namespace flux::matrix_schedulers {

struct MatrixAlgorithm {
  std::string name;
  std::string description;
  OptionTable options;
  // Runs with values resolved against `options` (every key present and checked).
  std::function<matrix::MatrixResult(const matrix::MatrixProblem&, const matrix::MatrixRunOptions&,
                                     const OptionValues&)>
      run_with;
  OptionValues preset;  // the values this name fixes; empty for a plain algorithm

  // The algorithm under its preset, `given` overlaid (InputError on an unknown key or a bad
  // value); the schedule carries this entry's name.
  [[nodiscard]] matrix::MatrixResult run(const matrix::MatrixProblem& p,
                                         const matrix::MatrixRunOptions& o,
                                         const OptionValues& given = {}) const;
};

const std::vector<MatrixAlgorithm>& matrix_algorithms();
const MatrixAlgorithm* find_matrix_algorithm(std::string_view name);  // nullptr if unknown

}  // namespace flux::matrix_schedulers
