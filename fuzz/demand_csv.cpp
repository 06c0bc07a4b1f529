// Fuzz target: demand matrices as plain CSV (read back through the JSON writer and reader).
#include "fuzz_support.hpp"
#include "matrix/demand.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::matrix::parse_demand_csv(t, "fuzz"); },
      [](const flux::matrix::Demand& d) { return flux::matrix::demand_to_json(d); },
      [](const std::string& t) { return flux::matrix::parse_demand_json(t, "fuzz"); });
}
