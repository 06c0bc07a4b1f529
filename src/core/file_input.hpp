#pragma once
// The one way Flux reads an input file whole. Regular files are read at their size; anything else
// (a pipe, a FIFO, a device such as /dev/zero) is read up to a limit, and a FIFO that no process
// writes to reads as empty instead of blocking forever. A directory, a missing file or an
// oversized stream is an InputError naming the path.
#include <cstdint>
#include <string>

namespace flux {

inline constexpr std::uint64_t kStreamInputLimit = std::uint64_t{1} << 30;  // 1 GiB

[[nodiscard]] std::string read_file(const std::string& path,
                                    std::uint64_t stream_limit = kStreamInputLimit);

}  // namespace flux
