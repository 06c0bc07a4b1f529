#include "core/file_input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

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
                       fmt::format("a file of at most {} bytes (it is not a regular file and "
                                   "keeps going; save it to a file first)",
                                   stream_limit));
  }
  return text;
}

}  // namespace flux
