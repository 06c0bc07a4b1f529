// Fuzz target: flux.scenario/1 (parsed and validated, echoed back).
#include "workload/scenario.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::workload::parse_scenario(t, "fuzz"); },
      [](const flux::workload::Scenario& s) { return flux::workload::scenario_to_json(s); });
}
