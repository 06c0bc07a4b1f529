// `flux matrix verify`: exit 0 valid, 1 invalid (every violation printed), 2 bad input.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli/matrix_common.hpp"
#include "core/error.hpp"
#include "matrix/schedule.hpp"
#include "matrix/verify.hpp"

namespace flux::cli {
namespace {

struct VerifyArgs {
  std::string demand;
  std::string schedule;
};

void run_verify(const VerifyArgs& a) {
  const matrix::Demand d = matrix::read_demand(a.demand);
  const matrix::MatrixSchedule s = matrix::read_matrix_schedule(a.schedule);
  // Files that do not belong together are bad input, not an invalid schedule.
  if (s.n != d.matrix.n())
    throw InputError(
        a.schedule, "/n",
        fmt::format("expected n = {} to match the demand {}, got {}", d.matrix.n(), a.demand, s.n));
  if (d.unit == matrix::DemandUnit::normalized && s.rate != 1.0)
    throw InputError(
        a.schedule, "/rate",
        fmt::format("expected rate 1 for the normalised demand {}, got {}", a.demand, s.rate));
  const matrix::VerifyReport r = verify_matrix_schedule(d.matrix, s);
  if (r.valid()) {
    fmt::print("valid: {} slots, {} circuits, makespan {}\n", s.slots.size(), s.circuits.size(),
               show_time(s.makespan, d.unit));
    return;
  }
  fmt::print("{}", r.to_text());
  fmt::print("invalid: {} violations\n", r.total());
  std::fflush(stdout);
  throw CLI::RuntimeError(1);  // a verdict, not an error: run() returns the code silently
}

}  // namespace

void add_matrix_verify(CLI::App& matrix) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = matrix.add_subcommand("verify", "Check a matrix schedule against its demand");
  cmd->add_option("--demand", args->demand, "demand matrix (.json or .csv)")->required();
  cmd->add_option("--schedule", args->schedule, "schedule (flux.matrix-schedule/1)")->required();
  cmd->callback([args] { run_verify(*args); });
}

}  // namespace flux::cli
