#pragma once
// The regular files of a POSIX tar archive (ustar and GNU formats, as `tar` writes them), for
// traces published as archives. Members are views into `data`. A truncated archive or a size
// field that is not octal is an InputError naming the archive and the member's byte offset.
// Complexity: O(archive size).
#include <string>
#include <string_view>
#include <vector>

namespace flux::workload {

struct TarMember {
  std::string name;  // path inside the archive
  std::string_view data;
};

[[nodiscard]] bool is_tar(std::string_view data);
[[nodiscard]] std::vector<TarMember> tar_members(std::string_view data, const std::string& label);

}  // namespace flux::workload
