// Fuzz target: ASTRA-sim / SimAI text workloads; what is accepted must be a valid flux.workload/1.
#include "fuzz_support.hpp"
#include "workload/size_limit.hpp"
#include "workload/workload_importers.hpp"
#include "workload/workload_io.hpp"

// A few bytes can ask for a workload of tens of millions of tasks: valid, but minutes under the
// sanitizers. Larger inputs are refused like any workload over the limit.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  flux::workload::set_generated_task_limit(2e5);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size, [](const std::string& t) { return flux::workload::parse_astra(t, "fuzz"); },
      [](const flux::workload::Workload& w) { return flux::workload::workload_to_json(w); },
      [](const std::string& t) { return flux::workload::parse_workload(t, "fuzz"); });
}
