#include "core/provenance.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <filesystem>

#include "core/build_info.hpp"
#include "core/sha256.hpp"

namespace flux {
namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

nlohmann::ordered_json hashed_inputs(const std::vector<std::string>& files) {
  auto out = nlohmann::ordered_json::array();
  std::vector<std::string> seen;
  for (const auto& f : files) {
    if (f.empty() || std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
    seen.push_back(f);
    out.push_back({{"path", f}, {"sha256", sha256_file(f)}});
  }
  return out;
}

}  // namespace

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  const std::size_t n = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text.data(), n);
}

nlohmann::ordered_json provenance_json(const ProvenanceInputs& in) {
  nlohmann::ordered_json j;
  j["flux_version"] = build_version();
  j["git_commit"] = build_commit();
  j["command_line"] = in.command_line;
  j["options"] = in.options;
  if (in.solver.empty())
    j["solver"] = nullptr;
  else
    j["solver"] = {{"name", in.solver}, {"version", in.solver_version}};
  j["inputs"] = hashed_inputs(in.input_files);
  j["date"] = utc_now_iso8601();
  j["host"] = host_name();
  return j;
}

std::string sidecar_path(const std::string& data_file) {
  return data_file + ".meta.json";
}

nlohmann::ordered_json provenance_sidecar(const std::string& data_file, const std::string& content,
                                          const nlohmann::ordered_json& provenance) {
  return {{"format", "flux.provenance/1"},
          {"file", std::filesystem::path(data_file).filename().string()},
          {"sha256", sha256_hex(content)},
          {"provenance", provenance}};
}

nlohmann::ordered_json without_provenance(nlohmann::ordered_json document) {
  if (document.is_object()) document.erase("provenance");
  return document;
}

}  // namespace flux
