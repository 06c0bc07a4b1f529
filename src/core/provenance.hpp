#pragma once
// What it takes to reproduce an output: the build (version, git commit), the command line, every
// option with its effective value (seeds included), the MILP solver and its version, the SHA-256 of
// every input file, the date (UTC, ISO 8601) and the host. Written under the one key "provenance"
// of a JSON output, or as a sidecar `<file>.meta.json` beside a CSV (docs/formats.md).
//
// The date and host differ between runs by design; everything else in an output must not, so
// comparisons of outputs drop this block (`without_provenance`).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux {

struct ProvenanceInputs {
  std::vector<std::string> command_line;                              // argv as given
  nlohmann::ordered_json options = nlohmann::ordered_json::object();  // name -> effective value
  std::vector<std::string> input_files;  // hashed in this order; duplicates hashed once
  std::string solver, solver_version;    // empty when the binary links no solver
};

// Hashes the input files (InputError naming an unreadable one).
[[nodiscard]] nlohmann::ordered_json provenance_json(const ProvenanceInputs& in);

// The sidecar of a data file: its own name and SHA-256 (of `content`), then the provenance.
[[nodiscard]] nlohmann::ordered_json provenance_sidecar(const std::string& data_file,
                                                        const std::string& content,
                                                        const nlohmann::ordered_json& provenance);
[[nodiscard]] std::string sidecar_path(const std::string& data_file);  // "<data_file>.meta.json"

// `document` without its "provenance" key: what two runs of one command must agree on.
[[nodiscard]] nlohmann::ordered_json without_provenance(nlohmann::ordered_json document);

// Now in UTC, ISO 8601 to the second ("2026-01-31T12:00:00Z").
[[nodiscard]] std::string utc_now_iso8601();

}  // namespace flux
