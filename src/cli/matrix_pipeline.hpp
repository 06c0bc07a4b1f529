#pragma once
// One checked run of a registered matrix scheduler, shared by `flux matrix schedule` and
// `flux run`: time the algorithm alone, fill rate and lower bound, and verify the schedule against
// the demand exactly as it will be written. A schedule that fails verification is a bug in the
// algorithm, reported as an internal error (exit 1) before anything is written.
#include <string>

#include "cli/matrix_common.hpp"
#include "matrix/bounds.hpp"
#include "matrix_algorithms/registry.hpp"

namespace flux::cli {

struct CheckedRun {
  MatrixResult result;  // schedule with rate and lower_bound filled in
  MatrixBounds bounds;
  double seconds = 0.0;  // the algorithm's own wall time, no I/O, no bound, no verification
};

// Throws InputError naming every registered algorithm when `name` is unknown.
[[nodiscard]] const MatrixAlgorithm& algorithm_or_throw(const std::string& name);

// Throws std::logic_error (internal error) when the verifier rejects the schedule.
[[nodiscard]] CheckedRun run_checked(const MatrixAlgorithm& algo, const LoadedProblem& lp,
                                     const MatrixRunOptions& opt = {});

}  // namespace flux::cli
