#pragma once
// The one way Flux reads an input file whole. Regular files are read at their size; anything else
// (a pipe, a FIFO, a device such as /dev/zero) is read up to a limit, and a FIFO that no process
// writes to reads as empty instead of blocking forever. A directory, a missing file or an
// oversized stream is an InputError naming the path.
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

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

// An input file read front to back through a buffer, under read_file's rules: for parsers that
// need the bytes once, in order, and should not hold a file of gigabytes in memory whole.
class FileReader {
 public:
  explicit FileReader(std::string path, std::uint64_t stream_limit = stream_input_limit());
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  ~FileReader();

  // The bytes after the last chunk returned; empty at the end of the file.
  [[nodiscard]] std::string_view next_chunk();
  [[nodiscard]] bool regular() const { return regular_; }
  [[nodiscard]] std::uint64_t regular_size() const { return size_; }  // 0 unless regular()

  // The bytes one at a time, as an input iterator (one pass; copies share the position).
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    Iterator() = default;
    explicit Iterator(FileReader* reader) : reader_(reader) { settle(); }
    const char& operator*() const { return reader_->chunk_[reader_->pos_]; }
    Iterator& operator++() {
      ++reader_->pos_;
      settle();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.reader_ == b.reader_; }

   private:
    void settle() {  // at the end of the file, equal to end()
      if (reader_->pos_ == reader_->chunk_.size() && !reader_->refill()) reader_ = nullptr;
    }
    FileReader* reader_ = nullptr;
  };
  [[nodiscard]] Iterator begin() { return Iterator(this); }
  [[nodiscard]] static Iterator end() { return {}; }

 private:
  bool refill();  // false at the end of the file

  std::string path_;
  std::uint64_t stream_limit_;
  int fd_ = -1;
  bool regular_ = false;
  std::uint64_t size_ = 0;
  std::uint64_t read_ = 0;  // bytes read so far
  std::unique_ptr<char[]> buffer_;
  std::string_view chunk_;
  std::size_t pos_ = 0;  // the iterator's place in chunk_
};

}  // namespace flux
