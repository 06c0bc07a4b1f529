#include "workload/tar_archive.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace flux::workload {
namespace {

constexpr std::size_t kBlock = 512;

std::string field(std::string_view header, std::size_t at, std::size_t width) {
  const std::string_view f = header.substr(at, width);
  return std::string(f.substr(0, f.find('\0')));
}

std::size_t octal(std::string_view header, const std::string& label, std::size_t offset) {
  std::size_t v = 0;
  bool digits = false;
  for (char c : header.substr(124, 12)) {
    if (c == '\0' || c == ' ') {
      if (digits) break;
      continue;
    }
    if (c < '0' || c > '7')
      throw InputError(label, fmt::format("byte {}", offset + 124), "an octal member size");
    v = v * 8 + static_cast<std::size_t>(c - '0');
    digits = true;
  }
  return v;
}

}  // namespace

bool is_tar(std::string_view data) {
  return data.size() >= kBlock && data.substr(257, 5) == "ustar";
}

std::vector<TarMember> tar_members(std::string_view data, const std::string& label) {
  std::vector<TarMember> out;
  for (std::size_t at = 0; at + kBlock <= data.size();) {
    const std::string_view header = data.substr(at, kBlock);
    if (header.find_first_not_of('\0') == std::string_view::npos) break;  // end-of-archive
    const std::size_t size = octal(header, label, at);
    const std::size_t body = at + kBlock;
    if (size > data.size() - body)
      throw InputError(label, fmt::format("byte {}", at),
                       fmt::format("a member of {} bytes (the archive ends first)", size));
    const char type = header[156];
    if (type == '0' || type == '\0') {  // a regular file
      std::string name = field(header, 0, 100);
      const std::string prefix = field(header, 345, 155);
      if (!prefix.empty()) name = prefix + "/" + name;
      out.push_back({std::move(name), data.substr(body, size)});
    }
    at = body + (size + kBlock - 1) / kBlock * kBlock;
  }
  return out;
}

}  // namespace flux::workload
