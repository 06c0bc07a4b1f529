#pragma once
// Shared body of the reader fuzz targets. A reader may reject its input (InputError) but must not
// crash, hang or trip a sanitizer; what it accepts must survive the round trip through the
// matching writer: write(parse(write(x))) == write(x). A failed round trip aborts, so libFuzzer
// records the input.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace flux::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// `read` parses the fuzzer's bytes, `write` turns the result into the project's own format and
// `read_back` parses that format.
template <class Read, class Write, class ReadBack>
int round_trip(const std::uint8_t* data, std::size_t size, Read read, Write write,
               ReadBack read_back) {
  std::string once;
  try {
    once = write(read(text_of(data, size)));
  } catch (const InputError&) {
    return 0;  // a clear rejection is the right answer to most inputs
  }
  if (write(read_back(once)) != once) std::abort();  // the writer's own output must read back
  return 0;
}

template <class Read, class Write>
int round_trip(const std::uint8_t* data, std::size_t size, Read read, Write write) {
  return round_trip(data, size, read, write, read);
}

}  // namespace flux::fuzz
