#include "cli/progress_flag.hpp"

#include <memory>

namespace flux::cli {
namespace {

// State of the process's one stderr, like stderr itself: set by the parse, read by the commands.
struct ProgressState {
  bool quiet = false;
  std::unique_ptr<Progress> reporter;
};

ProgressState& state() {
  static ProgressState s;
  return s;
}

}  // namespace

void add_quiet_flag(CLI::App& app) {
  app.add_flag("--quiet,-q", state().quiet, "no progress on stderr (results are the same)");
  // Subcommands added after this pass options they do not know to their parent, so that
  // `flux bench flux --quiet` works as well as `flux --quiet bench flux`.
  app.fallthrough();
}

Progress& progress() {
  if (!state().reporter) state().reporter = make_stderr_progress(state().quiet);
  return *state().reporter;
}

void reset_progress() {
  state().reporter.reset();
  state().quiet = false;
}

}  // namespace flux::cli
