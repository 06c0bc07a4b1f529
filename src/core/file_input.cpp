#include "core/file_input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/units.hpp"

namespace flux {

namespace {

// Closes the descriptor on every path out of read_file.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void fail_errno(const std::string& path, const char* what) {
  throw InputError(path, "", fmt::format("{}: {}", what, std::strerror(errno)));
}

}  // namespace

std::uint64_t stream_input_limit() {
  const char* env = std::getenv("FLUX_STREAM_LIMIT");
  if (env == nullptr) return kDefaultStreamInputLimit;
  const double bytes = parse_bytes(env, "FLUX_STREAM_LIMIT");
  if (bytes < 1)
    throw InputError("", "FLUX_STREAM_LIMIT", fmt::format("a positive size, got '{}'", env));
  // Beyond 2^62 bytes is "no limit" (and keeps the conversion defined).
  return bytes >= 0x1p62 ? std::uint64_t{1} << 62 : static_cast<std::uint64_t>(bytes);
}

std::string read_file(const std::string& path) {
  return read_file(path, stream_input_limit());
}

std::string read_file(const std::string& path, std::uint64_t stream_limit) {
  // Non-blocking open: opening a FIFO without a writer would otherwise wait forever.
  const Descriptor in{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (in.fd < 0) fail_errno(path, "cannot open file");
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) fail_errno(path, "cannot read file");
  if (S_ISDIR(st.st_mode)) throw InputError(path, "", "is a directory; expected a file");
  // Reads block from here on, so a pipe whose writer is slow is read whole.
  ::fcntl(in.fd, F_SETFL, ::fcntl(in.fd, F_GETFL) & ~O_NONBLOCK);
  const bool regular = S_ISREG(st.st_mode);
  std::string text;
  if (regular) text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(path, "cannot read file");
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (!regular && text.size() > stream_limit)
      throw InputError(path, "",
                       fmt::format("a stream of at most {} ({} bytes; it is not a regular file): "
                                   "save it to a file, or raise FLUX_STREAM_LIMIT",
                                   format_bytes(static_cast<double>(stream_limit)), stream_limit));
  }
  return text;
}

}  // namespace flux
