#pragma once
// The Flux paper's setup, read from examples/: Llama-3 8B with TP4 x DP2 on 8 A100
// (examples/llama3-8b-8l-tp4-dp2.json; the layer count is a parameter) on 2 OCSes with one
// 800 Gb/s duplex link per GPU each (examples/fabric-8gpu-2ocs.json; τ is a parameter).
#include <string>

#include "fabric/fabric.hpp"
#include "workload/scenario.hpp"
#include "workload/workload.hpp"

namespace flux::experiments {

[[nodiscard]] std::string example_path(const std::string& file);  // examples/<file>
[[nodiscard]] std::string paper_scenario_path();
[[nodiscard]] std::string paper_fabric_path();

// The scenario's workload with its model truncated (or extended) to `layers` layers.
[[nodiscard]] workload::Workload scenario_workload(const workload::Scenario& scenario, int layers);
[[nodiscard]] workload::Workload paper_workload(int layers);

// examples/gpt3-175b-16l-1024gpu-tp8-pp8-dp16-2mb.json with its data-parallel size cut so that
// it runs on `gpus` GPUs (a multiple of 64: TP8 x PP8 x DP gpus/64), still 2 micro-batches per
// data-parallel rank: the cluster-scale example at sizes a test or a benchmark can afford.
[[nodiscard]] workload::Workload gpt3_example_workload(int gpus);

// The fabric with reconfiguration delay `tau` (and `ocs` switches when ocs > 0).
[[nodiscard]] fabric::Fabric with_tau(fabric::Fabric f, double tau, int ocs = 0);

// "TP4xDP2": the mesh dimensions larger than 1, in Megatron's order.
[[nodiscard]] std::string parallelism_label(const workload::ParallelConfig& p);

}  // namespace flux::experiments
