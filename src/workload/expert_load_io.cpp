// Importer of measured expert loads (moe_routing.hpp): JSON flux.expert-load/1
//   {"format": "flux.expert-load/1", "ranks": R, "experts": E,
//    "load": [{"layer": 0, "src_rank": 0, "expert": 3, "tokens": 17}, ...]}
// or CSV rows `layer,src_rank,expert,tokens` (an optional header line). Absent entries are 0;
// repeated entries add up (a trace may list one row per micro-batch).
#include <fmt/format.h>

#include <sstream>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "workload/moe_routing.hpp"

namespace flux::workload {
namespace {

constexpr std::int64_t kMaxIndex = 1 << 20;

struct Entry {
  std::int64_t layer, src, expert, tokens;
};

ExpertLoadTable assemble(const std::vector<Entry>& entries, int ranks, int experts) {
  ExpertLoadTable t;
  t.ranks = ranks;
  t.experts = experts;
  for (const Entry& e : entries) {
    if (static_cast<std::size_t>(e.layer) >= t.layers.size())
      t.layers.resize(static_cast<std::size_t>(e.layer) + 1,
                      ExpertLoad(static_cast<std::size_t>(ranks),
                                 std::vector<std::int64_t>(static_cast<std::size_t>(experts), 0)));
    t.layers[static_cast<std::size_t>(e.layer)][static_cast<std::size_t>(e.src)]
            [static_cast<std::size_t>(e.expert)] += e.tokens;
  }
  return t;
}

std::int64_t csv_field(std::istringstream& row, const std::string& label, int line,
                       const char* name) {
  std::string cell;
  if (!std::getline(row, cell, ','))
    throw InputError(label, fmt::format("line {}", line), fmt::format("a `{}` column", name));
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  while (used < cell.size() && (cell[used] == ' ' || cell[used] == '\r')) ++used;
  if (used != cell.size() || v < 0 || cell.empty())
    throw InputError(label, fmt::format("line {}", line),
                     fmt::format("a non-negative integer in column `{}`, got '{}'", name, cell));
  return v;
}

}  // namespace

ExpertLoadTable parse_expert_load_csv(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  std::vector<Entry> entries;
  std::int64_t ranks = 0, experts = 0;
  for (int no = 1; std::getline(in, line); ++no) {
    if (line.empty() || line == "\r") continue;
    if (no == 1 && line.rfind("layer", 0) == 0) continue;  // header
    std::istringstream row(line);
    Entry e{csv_field(row, label, no, "layer"), csv_field(row, label, no, "src_rank"),
            csv_field(row, label, no, "expert"), csv_field(row, label, no, "tokens")};
    if (e.layer >= kMaxIndex || e.src >= kMaxIndex || e.expert >= kMaxIndex)
      throw InputError(label, fmt::format("line {}", no), "indices below 2^20");
    ranks = std::max(ranks, e.src + 1);
    experts = std::max(experts, e.expert + 1);
    entries.push_back(e);
  }
  if (entries.empty())
    throw InputError(label, "", "at least one `layer,src_rank,expert,tokens` row");
  return assemble(entries, static_cast<int>(ranks), static_cast<int>(experts));
}

ExpertLoadTable parse_expert_load_json(const std::string& text, const std::string& label) {
  JsonNode root = JsonNode::parse(text, label);
  root.expect_format("flux.expert-load", 1);
  const int ranks = static_cast<int>(root["ranks"].integer(1, kMaxIndex));
  const int experts = static_cast<int>(root["experts"].integer(1, kMaxIndex));
  JsonNode load = root["load"];
  if (!load.is_array()) load.fail("an array of {layer, src_rank, expert, tokens}");
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < load.size(); ++i) {
    JsonNode e = load.at(i);
    entries.push_back({e["layer"].integer(0, kMaxIndex - 1), e["src_rank"].integer(0, ranks - 1),
                       e["expert"].integer(0, experts - 1),
                       e["tokens"].integer(0, std::int64_t{1} << 40)});
  }
  return assemble(entries, ranks, experts);
}

ExpertLoadTable read_expert_load(const std::string& path) {
  const std::string text = read_file(path);
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return json ? parse_expert_load_json(text, path) : parse_expert_load_csv(text, path);
}

}  // namespace flux::workload
