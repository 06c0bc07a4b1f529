// Fuzz target: flux.circuit-schedule/1.
#include "fabric/fabric_io.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::parse_circuit_schedule(t, "fuzz"); },
      [](const flux::CircuitSchedule& s) { return flux::circuit_schedule_to_json(s); });
}
