#include <fmt/format.h>

#include "cli/commands.hpp"

namespace flux::cli {

void add_run_command(CLI::App& app) {
  auto* run = app.add_subcommand("run", "Flux's main job on the built-in default scenario");
  run->callback([] { fmt::print("flux {}\n", FLUX_VERSION); });
}

}  // namespace flux::cli
