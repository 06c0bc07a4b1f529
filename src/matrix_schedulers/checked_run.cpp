#include "matrix_schedulers/checked_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "core/error.hpp"
#include "matrix/verify.hpp"

namespace flux::matrix_schedulers {

const MatrixAlgorithm& algorithm_or_throw(const std::string& name) {
  if (const MatrixAlgorithm* a = find_matrix_algorithm(name)) return *a;
  std::string names;
  for (const MatrixAlgorithm& a : matrix_algorithms())
    names += (names.empty() ? "" : ", ") + a.name;
  throw InputError("", "--algorithm",
                   fmt::format("unknown algorithm '{}'; valid: {}", name, names));
}

CheckedRun run_checked(const MatrixAlgorithm& algo, const LoadedProblem& lp,
                       const matrix::MatrixRunOptions& opt) {
  CheckedRun run;
  const auto start = std::chrono::steady_clock::now();
  run.result = algo.run(lp.problem, opt);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.bounds = matrix::matrix_lower_bounds(lp.problem.time, lp.problem.switches, lp.problem.delta);
  matrix::MatrixSchedule& s = run.result.schedule;
  s.algorithm = algo.name;
  s.rate = lp.rate;
  s.lower_bound = run.bounds.for_model(s.reconfiguration);
  const matrix::VerifyReport report = verify_matrix_schedule(lp.demand.matrix, s);
  if (!report.valid())
    throw std::logic_error(fmt::format("{} produced an invalid schedule ({} violations): {}",
                                       algo.name, report.total(), report.violations()[0].message));
  return run;
}

}  // namespace flux::matrix_schedulers
