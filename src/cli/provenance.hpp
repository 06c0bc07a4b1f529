#pragma once
// The provenance block of a command's outputs (core/provenance.hpp), gathered from the command as
// CLI11 parsed it: every option with the value it ran with (given or default), the command line
// recorded by run(), and the CBC library this binary links.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux::cli {

// Called once by run() before parsing: CLI11 callbacks get no context, and argv is what a
// reader needs to repeat the run.
void record_command_line(int argc, char** argv);

// `cmd` is the subcommand that ran; `inputs` the files it read (empty names skipped).
[[nodiscard]] nlohmann::ordered_json command_provenance(const CLI::App& cmd,
                                                        const std::vector<std::string>& inputs);

// Writes `content` to `path` and its sidecar `<path>.meta.json` (file name, its SHA-256, the
// provenance): CSV stays plain for every CSV reader.
void write_with_sidecar(const std::string& path, const std::string& content,
                        const nlohmann::ordered_json& provenance);

}  // namespace flux::cli
