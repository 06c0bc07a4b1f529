// Fuzz target: a MILP solution file (`flux cosched --solution`) replayed on a small fixed instance:
// two GPUs exchange two messages around a compute task on one OCS.
#include "cosched/flux_scheduler.hpp"
#include "fuzz_support.hpp"
#include "workload/workload_io.hpp"

namespace {

const flux::cosched::CoschedInstance& instance() {
  static const flux::cosched::CoschedInstance inst = [] {
    const flux::workload::Workload w =
        flux::workload::parse_workload(R"({"format": "flux.workload/1", "gpus": 2,
      "tasks": [{"id": 0, "kind": "send", "src": 0, "dst": 1, "bytes": 1e6, "after": []},
                {"id": 1, "kind": "compute", "gpu": 1, "duration": 1e-4, "after": [0]},
                {"id": 2, "kind": "send", "src": 1, "dst": 0, "bytes": 2e6, "after": [1]}]})",
                                       "fuzz-workload");
    flux::fabric::Fabric f;
    f.gpus = 2;
    f.link_rate = 1e11;
    f.reconfig_delay = 1e-5;
    return flux::cosched::make_instance(w, f, "fuzz-workload");
  }();
  return inst;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)flux::cosched::replay_solution(instance(), {}, flux::fuzz::text_of(data, size), "fuzz");
  } catch (const flux::InputError&) {
  }
  return 0;
}
