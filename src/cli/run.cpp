#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"

namespace flux::cli {
namespace {

// The command group the user stopped at (`flux`, `flux matrix`, ...) when it needs a
// subcommand and got none; null otherwise.
const CLI::App* group_without_subcommand(const CLI::App& app) {
  const CLI::App* cur = &app;
  while (!cur->get_subcommands().empty()) cur = cur->get_subcommands().front();
  // Unparsed arguments (`flux matrix --bogus`) are an error of their own, reported as such.
  return cur->get_require_subcommand_min() > 0 && app.remaining_size(true) == 0 ? cur : nullptr;
}

}  // namespace

int run(CLI::App& app, int argc, char** argv) {
  remove_outputs_on_signal();
  record_command_line(argc, argv);
  // The reporter is dropped (its live line erased) however the command ends.
  struct ResetProgress {
    ~ResetProgress() { reset_progress(); }
  } reset;
  try {
    // A command publishes all its output files when it succeeds, or none of them.
    OutputBatch outputs;
    app.parse(argc, argv);
    outputs.commit();
    return 0;
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A command's verdict (verify: invalid -> 1), not an error: nothing more to print.
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // A group alone is a request for its usage: print it whole, still exit 2 (nothing ran).
    const CLI::App* group =
        dynamic_cast<const CLI::RequiredError*>(&e) ? group_without_subcommand(app) : nullptr;
    if (group) {
      fmt::print(stderr, "{}", group->help());
      fmt::print(stderr, "flux: error: {} needs a subcommand (listed above)\n",
                 group->get_parent() ? group->get_name() : "flux");
      return 2;
    }
    fmt::print(stderr, "flux: error: {}\n", e.what());
    return 2;
  } catch (const InputError& e) {
    fmt::print(stderr, "flux: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "flux: internal error: {}\n", e.what());
    return 1;
  }
}

}  // namespace flux::cli
