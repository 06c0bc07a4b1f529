#include "workload/chakra_ranks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "workload/gzip.hpp"
#include "workload/tar_archive.hpp"

namespace flux::workload {
namespace {

namespace fs = std::filesystem;

// The rank of `name` if it is `<base>.<digits>.et` or `<base>.<digits>.et.gz`.
std::optional<int> rank_of(const std::string& name, const std::string& base) {
  if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 ||
      name[base.size()] != '.')
    return std::nullopt;
  std::string rest = name.substr(base.size() + 1);
  for (const char* ext : {".et.gz", ".et"}) {
    const std::string e = ext;
    if (rest.size() > e.size() && rest.compare(rest.size() - e.size(), e.size(), e) == 0) {
      rest.resize(rest.size() - e.size());
      if (rest.size() > 9 || rest.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      return std::stoi(rest);
    }
  }
  return std::nullopt;
}

// rank -> the one file that holds it; `where` names the set in errors.
using RankNames = std::map<int, std::string>;

void add_rank(RankNames& ranks, int rank, const std::string& name, const std::string& where) {
  auto [it, fresh] = ranks.emplace(rank, name);
  if (!fresh)
    throw InputError(name, "",
                     fmt::format("one trace per rank, but rank {} is also in {}", rank,
                                 where.empty() ? it->second : where + ":" + it->second));
}

void check_contiguous(const RankNames& ranks, const std::string& prefix) {
  int expected = 0;
  for (const auto& [rank, name] : ranks) {
    if (rank != expected)
      throw InputError(chakra_rank_file(prefix, expected), "",
                       fmt::format("a trace for every rank 0..{} (rank {} is missing)",
                                   ranks.rbegin()->first, expected));
    ++expected;
  }
}

std::vector<ChakraRankFile> from_archive(const std::string& path, const std::string& data) {
  const std::vector<TarMember> members = tar_members(data, path);
  // Members named `<dir>/<base>.<rank>.et`: every one must share the same `<dir>/<base>`.
  std::string base;
  RankNames ranks;
  std::map<std::string, std::string_view> bodies;
  for (const TarMember& m : members) {
    const std::size_t et = m.name.rfind(".et");
    if (et == std::string::npos) continue;
    const std::size_t dot = m.name.rfind('.', et - 1);
    if (dot == std::string::npos) continue;
    const std::string b = m.name.substr(0, dot);
    const std::optional<int> r = rank_of(m.name, b);
    if (!r) continue;
    if (!base.empty() && b != base)
      throw InputError(path, m.name, fmt::format("one trace set per archive, also found {}", base));
    base = b;
    add_rank(ranks, *r, m.name, path);
    bodies[m.name] = m.data;
  }
  if (ranks.empty()) throw InputError(path, "", "an archive holding <name>.<rank>.et trace files");
  check_contiguous(ranks, path + ":" + base);
  std::vector<ChakraRankFile> out;
  for (const auto& [rank, name] : ranks) {
    const std::string label = path + ":" + name;
    out.push_back({label, parse_chakra(bodies[name], label)});
  }
  return out;
}

// The files `<prefix>.<rank>.et[.gz]` in prefix's directory, one per rank 0..N-1 (checked).
RankNames directory_ranks(const std::string& prefix) {
  std::error_code ec;
  const fs::path p(prefix);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string base = p.filename().string();
  std::vector<std::pair<std::string, int>> found;  // sorted below: directory order varies
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (const std::optional<int> r = rank_of(name, base))
      found.emplace_back(p.has_parent_path() ? (dir / name).string() : name, *r);
  }
  std::sort(found.begin(), found.end());
  RankNames ranks;
  for (const auto& [file, r] : found) add_rank(ranks, r, file, "");
  if (ranks.empty()) throw InputError(chakra_rank_file(prefix, 0), "", "cannot open file");
  check_contiguous(ranks, prefix);
  return ranks;
}

}  // namespace

std::vector<ChakraRankFile> load_chakra_ranks(const std::string& prefix) {
  std::error_code ec;
  if (fs::is_regular_file(prefix, ec)) {
    const std::string data = read_data_file(prefix);
    if (!is_tar(data))
      throw InputError(prefix, "",
                       "a tar archive of traces, or the prefix of <prefix>.<rank>.et files");
    return from_archive(prefix, data);
  }
  std::vector<ChakraRankFile> out;
  for (const auto& [rank, file] : directory_ranks(prefix))
    out.push_back({file, parse_chakra(read_file(file), file)});
  return out;
}

std::vector<std::string> chakra_input_files(const std::string& prefix) {
  std::error_code ec;
  if (fs::is_regular_file(prefix, ec)) return {prefix};
  std::vector<std::string> files;
  for (const auto& [rank, file] : directory_ranks(prefix)) files.push_back(file);
  return files;
}

}  // namespace flux::workload
