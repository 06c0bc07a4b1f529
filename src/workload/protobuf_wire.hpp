#pragma once
// The protobuf wire format, hand-rolled (no libprotobuf dependency): base-128 varints, field tags,
// length-delimited records, fixed 32/64-bit values, zigzag, and the varint-length-delimited
// stream framing Chakra uses (SerializeDelimitedTo...). Every read is bounds-checked: a truncated
// varint, an overlong length or an unknown wire type is an InputError naming the file and the
// byte offset. Complexity: O(bytes).
#include <cstdint>
#include <string>
#include <string_view>

namespace flux::workload {

enum class WireType { varint = 0, fixed64 = 1, length = 2, fixed32 = 5 };

class WireReader {
 public:
  WireReader(std::string_view data, std::string file, std::size_t base = 0)
      : data_(data), file_(std::move(file)), base_(base) {}
  bool done() const { return pos_ >= data_.size(); }
  std::size_t offset() const { return base_ + pos_; }
  std::uint64_t varint();
  // Reads a tag; returns the field number and sets `type`.
  std::uint32_t tag(WireType& type);
  std::string_view bytes();  // a length-delimited payload
  std::uint64_t fixed64() { return fixed(8); }
  std::uint32_t fixed32() { return static_cast<std::uint32_t>(fixed(4)); }
  void skip(WireType type);
  // A sub-reader over a length-delimited payload (offsets stay file-absolute).
  WireReader sub();
  [[noreturn]] void fail(const std::string& expected) const;
  const std::string& file() const { return file_; }

 private:
  std::uint64_t fixed(int width);  // little-endian
  std::string_view data_;
  std::string file_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

class WireWriter {
 public:
  void varint(std::uint64_t v);
  void tag(std::uint32_t field, WireType type) {
    varint((std::uint64_t{field} << 3) | static_cast<std::uint64_t>(type));
  }
  void varint_field(std::uint32_t field, std::uint64_t v) {
    tag(field, WireType::varint);
    varint(v);
  }
  void bytes_field(std::uint32_t field, std::string_view bytes);
  void double_field(std::uint32_t field, double v);
  // fixed32 (width 4) or fixed64 (width 8), little-endian.
  void fixed_field(std::uint32_t field, std::uint64_t bits, int width);
  const std::string& data() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

inline std::int64_t zigzag_decode(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}
inline std::uint64_t zigzag_encode(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

}  // namespace flux::workload
