// Fuzz target: flux.circuit-schedule/1, with indices checked against an 8-GPU, 2-OCS fabric.
#include "fabric/fabric_io.hpp"
#include "fuzz_support.hpp"

namespace {

flux::fabric::Fabric fabric() {
  flux::fabric::Fabric f;
  f.gpus = 8;
  f.ocs = 2;
  f.link_rate = 1e11;
  f.reconfig_delay = 1e-5;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const flux::fabric::Fabric f = fabric();
  return flux::fuzz::round_trip(
      data, size,
      [](const std::string& t) { return flux::fabric::parse_circuit_schedule(t, "fuzz", f); },
      [](const flux::fabric::CircuitSchedule& s) {
        return flux::fabric::circuit_schedule_to_json(s);
      });
}
