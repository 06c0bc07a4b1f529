#pragma once
// Each command family registers its subcommands on the top-level app.
#include <CLI/CLI.hpp>

namespace flux::cli {

void add_matrix_commands(CLI::App& app);
void add_run_command(CLI::App& app);
void add_cosched_commands(CLI::App& app);
void add_flux_bench_command(CLI::App& app);  // `flux bench flux`
void add_simulate_command(CLI::App& app);
void add_matrix_bench_command(CLI::App& matrix);  // under `flux matrix`
void add_workload_commands(CLI::App& app);
void add_sweep_commands(CLI::App& app);  // `flux sweep plan|run|slurm|merge|status`
void add_report_command(CLI::App& app);  // `flux report`

// Parses and runs; maps every error to one line on stderr and an exit code (2 = bad input).
int run(CLI::App& app, int argc, char** argv);

}  // namespace flux::cli
