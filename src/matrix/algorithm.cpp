#include "matrix/algorithm.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace flux::matrix {

void check_settings(const MatrixProblem& p) {
  // Plans hold per-switch vectors; more switches than this are not a physical configuration.
  if (p.switches < 1 || p.switches > kMaxSwitches)
    throw InputError("", "switches", "an integer in [1, " + std::to_string(kMaxSwitches) + "]");
  if (!std::isfinite(p.delta) || p.delta < 0) throw InputError("", "delta", "a finite time >= 0");
}

void throw_invalid_demand() {
  throw InputError("", "demand", "finite entries >= 0");
}

void check_problem(const MatrixProblem& p) {
  check_settings(p);
  bool ok = true;
  for (double v : p.time.data()) ok &= valid_demand(v);
  if (!ok) throw_invalid_demand();
}

}  // namespace flux::matrix
