#include "experiments/paper_setup.hpp"

#include <fmt/format.h>

#include "fabric/fabric_io.hpp"
#include "workload/dag_builder.hpp"

namespace flux::experiments {

std::string example_path(const std::string& file) {
  return std::string(FLUX_EXAMPLES_DIR) + "/" + file;
}

std::string paper_scenario_path() {
  return example_path("llama3-8b-8l-tp4-dp2.json");
}

std::string paper_fabric_path() {
  return example_path("fabric-8gpu-2ocs.json");
}

workload::Workload scenario_workload(const workload::Scenario& scenario, int layers) {
  workload::Scenario s = scenario;
  s.model.num_layers = layers;
  validate_scenario(s, s.name);
  return build_workload(s);
}

workload::Workload paper_workload(int layers) {
  return scenario_workload(workload::read_scenario(paper_scenario_path()), layers);
}

workload::Workload gpt3_example_workload(int gpus) {
  workload::Scenario s =
      workload::read_scenario(example_path("gpt3-175b-16l-1024gpu-tp8-pp8-dp16-2mb.json"));
  const int per_rank = s.training.global_batch_size / s.parallel.data_parallel_size();
  s.parallel.world_size = gpus;
  s.training.global_batch_size = per_rank * s.parallel.data_parallel_size();
  validate_scenario(s, s.name);
  return build_workload(s);
}

fabric::Fabric with_tau(fabric::Fabric f, double tau, int ocs) {
  f.reconfig_delay = tau;
  if (ocs > 0) f.ocs = ocs;
  return f;
}

std::string parallelism_label(const workload::ParallelConfig& p) {
  std::string out;
  const auto add = [&](const char* name, int size) {
    if (size > 1) out += fmt::format("{}{}{}", out.empty() ? "" : "x", name, size);
  };
  add("TP", p.tensor_model_parallel_size);
  add("CP", p.context_parallel_size);
  add("EP", p.expert_model_parallel_size);
  add("DP", p.data_parallel_size());
  add("PP", p.pipeline_model_parallel_size);
  return out.empty() ? "1 GPU" : out;
}

}  // namespace flux::experiments
