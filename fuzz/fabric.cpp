// Fuzz target: flux.fabric/1.
#include "fabric/fabric_io.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::fabric::parse_fabric(t, "fuzz"); },
      [](const flux::fabric::Fabric& f) { return flux::fabric::fabric_to_json(f); });
}
