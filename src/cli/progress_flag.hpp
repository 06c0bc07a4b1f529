#pragma once
// The global `--quiet` flag and the progress reporter every command hands to the libraries: the
// live line on an interactive stderr, one plain line per stage otherwise, nothing with --quiet.
// Progress goes to stderr only; stdout and the output files are the same either way.
#include <CLI/CLI.hpp>

#include "core/progress.hpp"

namespace flux::cli {

// Adds --quiet (-q) to the top-level app; it is accepted after a subcommand too.
void add_quiet_flag(CLI::App& app);

// The reporter of this run, made on first use from --quiet and whether stderr is a terminal.
[[nodiscard]] Progress& progress();

// Drops the reporter (erasing a live line), so that the next parse starts afresh.
void reset_progress();

}  // namespace flux::cli
