#include "workload/protobuf_wire.hpp"

#include <fmt/format.h>

#include <cstring>

#include "core/error.hpp"

namespace flux::workload {

void WireReader::fail(const std::string& expected) const {
  throw InputError(file_, fmt::format("byte {}", offset()), expected);
}

std::uint64_t WireReader::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) fail("a complete varint (the data ends inside one)");
    const auto b = static_cast<std::uint8_t>(data_[pos_++]);
    v |= std::uint64_t{b & 0x7Fu} << shift;
    if ((b & 0x80u) == 0) return v;
  }
  fail("a varint of at most 10 bytes");
}

std::uint32_t WireReader::tag(WireType& type) {
  const std::uint64_t t = varint();
  const auto wt = static_cast<unsigned>(t & 7);
  if (wt != 0 && wt != 1 && wt != 2 && wt != 5)
    fail(fmt::format("a wire type 0, 1, 2 or 5, got {}", wt));
  if ((t >> 3) == 0 || (t >> 3) > 0x1FFFFFFF) fail("a field number in [1, 2^29)");
  type = static_cast<WireType>(wt);
  return static_cast<std::uint32_t>(t >> 3);
}

std::string_view WireReader::bytes() {
  const std::uint64_t n = varint();
  if (n > data_.size() - pos_)
    fail(fmt::format("{} more bytes for a length-delimited field, only {} left", n,
                     data_.size() - pos_));
  const std::string_view v = data_.substr(pos_, static_cast<std::size_t>(n));
  pos_ += static_cast<std::size_t>(n);
  return v;
}

std::uint64_t WireReader::fixed(int width) {
  const auto n = static_cast<std::size_t>(width);
  if (data_.size() - pos_ < n) fail(fmt::format("{} bytes of a fixed-width field", width));
  std::uint64_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = (v << 8) | static_cast<std::uint8_t>(data_[pos_ + i]);
  pos_ += n;
  return v;
}

void WireReader::skip(WireType type) {
  switch (type) {
    case WireType::varint:
      (void)varint();
      break;
    case WireType::fixed64:
      (void)fixed64();
      break;
    case WireType::length:
      (void)bytes();
      break;
    case WireType::fixed32:
      (void)fixed32();
      break;
  }
}

WireReader WireReader::sub() {
  const std::size_t start = pos_;
  const std::string_view payload = bytes();
  return WireReader(payload, file_, base_ + start + (pos_ - start - payload.size()));
}

void WireWriter::varint(std::uint64_t v) {
  while (v >= 0x80) {
    out_ += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out_ += static_cast<char>(v);
}

void WireWriter::bytes_field(std::uint32_t field, std::string_view bytes) {
  tag(field, WireType::length);
  varint(bytes.size());
  out_.append(bytes);
}

void WireWriter::double_field(std::uint32_t field, double v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  fixed_field(field, bits, 8);
}

void WireWriter::fixed_field(std::uint32_t field, std::uint64_t bits, int width) {
  tag(field, width == 8 ? WireType::fixed64 : WireType::fixed32);
  for (int i = 0; i < width; ++i) out_ += static_cast<char>((bits >> (8 * i)) & 0xFF);
}

}  // namespace flux::workload
