#pragma once
// Shared by the `flux matrix` subcommands and `flux run`: reading a demand file with s, delta and
// rate from the command line into a MatrixProblem (time units), and printing times back in the
// demand's units (seconds in human units for byte demand, plain numbers for normalised demand).
#include <CLI/CLI.hpp>
#include <string>

#include "matrix/algorithm.hpp"
#include "matrix/demand.hpp"
#include "matrix_schedulers/checked_run.hpp"

namespace flux::cli {

struct ProblemArgs {
  std::string demand;  // path
  int switches = 0;
  std::string delta;  // "10us" for byte demand, a plain number for normalised demand
  std::string rate;   // required for byte demand, ignored for normalised demand
};

// Adds --demand, --switches, --delta, --rate (all but --rate required).
void add_problem_options(CLI::App& cmd, ProblemArgs& args);

// Throws InputError on a missing/bad file, s < 1, a bad delta or rate.
[[nodiscard]] matrix_schedulers::LoadedProblem load_problem(const ProblemArgs& args);

// A time in the demand's units: "1.25ms" (bytes) or "0.3114" (normalised).
[[nodiscard]] std::string show_time(double t, matrix::DemandUnit unit);

// The `flux matrix` subcommands, one file each.
void add_matrix_generate(CLI::App& matrix);
void add_matrix_schedule(CLI::App& matrix);
void add_matrix_bound(CLI::App& matrix);
void add_matrix_verify(CLI::App& matrix);

}  // namespace flux::cli
