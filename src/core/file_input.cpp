#include "core/file_input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "core/units.hpp"

namespace flux {

namespace {

// Closes the descriptor on every path out of FileReader's constructor.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void fail_errno(const std::string& path, const char* what) {
  throw InputError(path, "", fmt::format("{}: {}", what, std::strerror(errno)));
}

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

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
  FileReader in(path, stream_limit);
  std::string text;
  text.reserve(in.regular_size());
  for (std::string_view chunk = in.next_chunk(); !chunk.empty(); chunk = in.next_chunk())
    text.append(chunk);
  return text;
}

FileReader::FileReader(std::string path, std::uint64_t stream_limit)
    : path_(std::move(path)), stream_limit_(stream_limit) {
  // Non-blocking open: opening a FIFO without a writer would otherwise wait forever.
  Descriptor in{::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (in.fd < 0) fail_errno(path_, "cannot open file");
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) fail_errno(path_, "cannot read file");
  if (S_ISDIR(st.st_mode)) throw InputError(path_, "", "is a directory; expected a file");
  // Reads block from here on, so a pipe whose writer is slow is read whole.
  ::fcntl(in.fd, F_SETFL, ::fcntl(in.fd, F_GETFL) & ~O_NONBLOCK);
  regular_ = S_ISREG(st.st_mode);
  size_ = regular_ ? static_cast<std::uint64_t>(st.st_size) : 0;
  buffer_ = std::make_unique<char[]>(kBufferBytes);
  fd_ = std::exchange(in.fd, -1);
}

FileReader::~FileReader() {
  if (fd_ >= 0) ::close(fd_);
}

std::string_view FileReader::next_chunk() {
  return refill() ? chunk_ : std::string_view();
}

bool FileReader::refill() {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.get(), kBufferBytes);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(path_, "cannot read file");
    read_ += static_cast<std::uint64_t>(n);
    if (!regular_ && read_ > stream_limit_)
      throw InputError(
          path_, "",
          fmt::format("a stream of at most {} ({} bytes; it is not a regular file): "
                      "save it to a file, or raise FLUX_STREAM_LIMIT",
                      format_bytes(static_cast<double>(stream_limit_)), stream_limit_));
    chunk_ = {buffer_.get(), static_cast<std::size_t>(n)};
    pos_ = 0;
    return n > 0;
  }
}

}  // namespace flux
