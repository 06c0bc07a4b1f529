// Fuzz target: one Chakra execution-trace file (protobuf, length-delimited).
#include "fuzz_support.hpp"
#include "workload/chakra_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::workload::parse_chakra(t, "fuzz"); },
      [](const flux::workload::ChakraTrace& t) { return flux::workload::encode_chakra(t); });
}
