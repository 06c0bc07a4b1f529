#include "cli/commands.hpp"
#include "cli/malloc_tuning.hpp"
#include "cli/progress_flag.hpp"

int main(int argc, char** argv) {
  flux::cli::restart_with_malloc_tuning(argv);
  CLI::App app{"flux: optical circuit switch scheduling for AI training fabrics"};
  app.set_version_flag("--version", FLUX_VERSION);
  app.require_subcommand(1);
  // Every option records its default: --help shows it and the provenance block echoes it.
  app.option_defaults()->always_capture_default();
  flux::cli::add_quiet_flag(app);  // first: the subcommands inherit its fallthrough
  flux::cli::add_run_command(app);
  flux::cli::add_matrix_commands(app);
  flux::cli::add_cosched_commands(app);
  flux::cli::add_flux_bench_command(app);
  flux::cli::add_simulate_command(app);
  flux::cli::add_workload_commands(app);
  flux::cli::add_sweep_commands(app);
  flux::cli::add_report_command(app);
  return flux::cli::run(app, argc, argv);
}
