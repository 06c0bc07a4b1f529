#pragma once
// The one way Flux reads an input file whole. Regular files are read at their size; anything else
// (a pipe, a FIFO, a device such as /dev/zero) is read up to a limit, and a FIFO that no process
// writes to reads as empty instead of blocking forever. A directory, a missing file or an
// oversized stream is an InputError naming the path.
#include <cstdint>
#include <string>

namespace flux {

// How much of a non-regular input is read before it is refused. Large enough for realistic piped
// files, small enough that an endless device (/dev/zero) is refused in a fraction of a second
// instead of filling memory. The environment variable FLUX_STREAM_LIMIT (a size such as "4GiB")
// replaces it for longer streams.
inline constexpr std::uint64_t kDefaultStreamInputLimit = std::uint64_t{64} << 20;  // 64 MiB

// FLUX_STREAM_LIMIT when set (an InputError naming the variable when it is not a positive size),
// otherwise kDefaultStreamInputLimit.
[[nodiscard]] std::uint64_t stream_input_limit();

[[nodiscard]] std::string read_file(const std::string& path);
[[nodiscard]] std::string read_file(const std::string& path, std::uint64_t stream_limit);

}  // namespace flux
