#include "cli/matrix_common.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "core/units.hpp"
#include "spectra/spectra.hpp"

namespace flux::cli {

void add_problem_options(CLI::App& cmd, ProblemArgs& args) {
  cmd.add_option("--demand", args.demand, "demand matrix (flux.demand/1 .json or .csv)")
      ->required();
  cmd.add_option("--ocs,-s,--switches", args.switches, "number of parallel OCSes (>= 1)")
      ->required()
      ->default_str("");  // required: a default would only mislead
  cmd.add_option("--tau,--delta", args.delta,
                 "reconfiguration delay: a time such as 10us for byte demand, a plain number "
                 "(fraction of the busiest port's time) for normalised demand")
      ->type_name("TIME|NUMBER")
      ->required();
  cmd.add_option("--rate", args.rate,
                 "link rate such as 800Gbps (byte demand only, where it is required)")
      ->type_name("RATE");
}

namespace {

// Normalised time has no unit: accept only a plain non-negative number.
double parse_plain(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0)
    throw InputError("", what,
                     fmt::format("expected a plain number >= 0 for normalised demand (the busiest "
                                 "port needs 1 time unit), got '{}'",
                                 text));
  return v;
}

}  // namespace

matrix_schedulers::LoadedProblem load_problem(const ProblemArgs& args) {
  // The schedulers' own limit: the command line accepts exactly what they do.
  if (args.switches < 1 || args.switches > matrix::kMaxSwitches)
    throw InputError(
        "", "--ocs",
        fmt::format("expected an integer in [1, {}], got {}", matrix::kMaxSwitches, args.switches));
  matrix_schedulers::LoadedProblem lp;
  lp.demand = matrix::read_demand(args.demand);
  lp.problem.switches = args.switches;
  if (lp.demand.unit == matrix::DemandUnit::normalized) {
    lp.problem.delta = parse_plain(args.delta, "--tau");
    lp.rate_ignored = !args.rate.empty();
    lp.problem.time = lp.demand.matrix;
    return lp;
  }
  lp.problem.delta = parse_time(args.delta, "--tau");
  if (args.rate.empty())
    throw InputError("", "--rate",
                     fmt::format("required: {} holds bytes (e.g. --rate 800Gbps)", args.demand));
  lp.rate = parse_rate(args.rate, "--rate");
  if (!(lp.rate > 0)) throw InputError("", "--rate", "expected a rate > 0");
  lp.problem.time = lp.demand.matrix.scaled(1.0 / lp.rate);
  lp.problem.byte_time = 1.0 / lp.rate;
  return lp;
}

std::string show_time(double t, matrix::DemandUnit unit) {
  return unit == matrix::DemandUnit::bytes ? format_time(t) : fmt::format("{:.6g}", t);
}

}  // namespace flux::cli
