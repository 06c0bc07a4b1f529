#pragma once
// The cosched tests' instances: the shared hand-built and random workloads and fabrics, and the
// Flux paper's 8-layer workload.
#include <string>

#include "support/fabrics.hpp"
#include "support/workloads.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"

namespace flux::testing {

// examples/llama3-8b-8l-tp4-dp2.json: Llama-3 8B, 8 layers, TP4 × DP2 on 8 GPUs.
inline workload::Workload paper_workload() {
  return workload::build_workload(workload::read_scenario(
      std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json"));
}

}  // namespace flux::testing
