#pragma once
// One checked run of a registered matrix scheduler, shared by `flux matrix schedule`, `flux run`
// and the Python module: time the algorithm alone, fill rate and lower bound, and verify the
// schedule against the demand exactly as it will be written. A schedule that fails verification
// is a bug in the algorithm, reported as an internal error (exit 1) before anything is written.
#include <string>

#include "matrix/bounds.hpp"
#include "matrix/demand.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::matrix_schedulers {

// A demand as given (file or array) and the problem the schedulers see.
struct LoadedProblem {
  matrix::Demand demand;          // as given
  matrix::MatrixProblem problem;  // time = demand / rate
  double rate = 1.0;              // bytes per second, 1 for normalised demand
  bool rate_ignored = false;      // a rate was given for normalised demand
};

struct CheckedRun {
  matrix::MatrixResult result;  // schedule with rate and lower_bound filled in
  matrix::MatrixBounds bounds;
  double seconds = 0.0;  // the algorithm's own wall time, no I/O, no bound, no verification
};

// Throws InputError naming every registered algorithm when `name` is unknown.
[[nodiscard]] const MatrixAlgorithm& algorithm_or_throw(const std::string& name);

// Throws std::logic_error (internal error) when the verifier rejects the schedule.
[[nodiscard]] CheckedRun run_checked(const MatrixAlgorithm& algo, const LoadedProblem& lp,
                                     const matrix::MatrixRunOptions& opt = {});

}  // namespace flux::matrix_schedulers
