#include "cli/commands.hpp"

namespace flux::cli {

void add_matrix_commands(CLI::App& app) {
  auto* matrix = app.add_subcommand("matrix", "Schedule one demand matrix on parallel OCSes");
  matrix->require_subcommand(1);
  add_matrix_bench_command(*matrix);
}

}  // namespace flux::cli
