// Fuzz target: flux.workload/1 (the reader validates the DAG).
#include "fuzz_support.hpp"
#include "workload/workload_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::workload::parse_workload(t, "fuzz"); },
      [](const flux::workload::Workload& w) { return flux::workload::workload_to_json(w); });
}
