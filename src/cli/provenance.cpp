#include "cli/provenance.hpp"

#include "core/file_output.hpp"
#include "core/provenance.hpp"
#include "milp/backend.hpp"

namespace flux::cli {
namespace {

std::vector<std::string>& command_line() {
  static std::vector<std::string> argv;  // written once by record_command_line
  return argv;
}

// A flag is true or false; a list option an array; any other option its text, as given or its
// default (null when it has none: an optional input left out).
nlohmann::ordered_json option_value(const CLI::Option& opt) {
  if (opt.get_expected_max() == 0) return opt.count() > 0;
  if (opt.count() == 0) {
    const std::string d = opt.get_default_str();
    if (d.empty()) return nullptr;
    return d;
  }
  const auto& results = opt.results();
  if (opt.get_expected_max() > 1) return results;
  return results.back();
}

nlohmann::ordered_json option_values(const CLI::App& cmd) {
  auto out = nlohmann::ordered_json::object();
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt == cmd.get_help_ptr() || opt == cmd.get_help_all_ptr()) continue;
    out[opt->get_name()] = option_value(*opt);
  }
  return out;
}

}  // namespace

void record_command_line(int argc, char** argv) {
  command_line().assign(argv, argv + argc);
}

nlohmann::ordered_json command_provenance(const CLI::App& cmd,
                                          const std::vector<std::string>& inputs) {
  ProvenanceInputs in;
  in.command_line = command_line();
  in.options = option_values(cmd);
  in.input_files = inputs;
  in.solver = "CBC";
  in.solver_version = milp::cbc_version();
  return provenance_json(in);
}

void write_with_sidecar(const std::string& path, const std::string& content,
                        const nlohmann::ordered_json& provenance) {
  write_file_atomic(path, content);
  write_file_atomic(sidecar_path(path),
                    provenance_sidecar(path, content, provenance).dump(1) + "\n");
}

}  // namespace flux::cli
