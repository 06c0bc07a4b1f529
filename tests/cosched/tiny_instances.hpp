#pragma once
// Small hand-built and seeded random workloads for the cosched tests, and the Flux paper's 8-layer
// workload.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "fabric/fabric.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload.hpp"

namespace flux::testing {

inline Task compute(int gpu, double duration, std::vector<int> after = {}) {
  Task t;
  t.kind = TaskKind::compute;
  t.gpu = gpu;
  t.duration = duration;
  t.after = std::move(after);
  return t;
}

inline Task send(int src, int dst, double bytes, std::vector<int> after = {}) {
  Task t;
  t.kind = TaskKind::send;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.after = std::move(after);
  return t;
}

inline Workload make_workload(int gpus, std::vector<Task> tasks) {
  for (std::size_t i = 0; i < tasks.size(); ++i) tasks[i].id = static_cast<std::int64_t>(i) + 100;
  return Workload{.gpus = gpus, .tasks = std::move(tasks)};
}

inline Fabric make_fabric(int gpus, int ocs, double tau, CircuitKind kind = CircuitKind::duplex,
                          bool initial_free = false) {
  return Fabric{gpus, ocs, 1.0, 0.0, tau, kind, initial_free};
}

// A random DAG on `gpus` GPUs: `messages` sends with integer sizes 1..4, some compute tasks
// (chained per GPU) in between, random edges from earlier tasks (each with `edge_probability`;
// sparser DAGs leave more sends free to contend for ports).
inline Workload random_workload(std::uint64_t seed, int gpus, int messages,
                                double edge_probability = 0.25) {
  Rng rng(seed);
  std::vector<Task> tasks;
  std::vector<int> last_compute(gpus, -1);
  int sends = 0;
  while (sends < messages) {
    const int here = static_cast<int>(tasks.size());
    std::vector<int> after;
    for (int p = 0; p < here; ++p)
      if (rng.uniform() < edge_probability) after.push_back(p);
    if (rng.uniform() < 0.3) {
      const int g = static_cast<int>(rng.below(gpus));
      if (last_compute[g] >= 0 &&
          std::find(after.begin(), after.end(), last_compute[g]) == after.end())
        after.push_back(last_compute[g]);
      tasks.push_back(compute(g, static_cast<double>(1 + rng.below(3)), after));
      last_compute[g] = here;
    } else {
      const int src = static_cast<int>(rng.below(gpus));
      const int dst = (src + 1 + static_cast<int>(rng.below(gpus - 1))) % gpus;
      tasks.push_back(send(src, dst, static_cast<double>(1 + rng.below(4)), after));
      ++sends;
    }
  }
  return make_workload(gpus, std::move(tasks));
}

// examples/llama3-8b-8l-tp4-dp2.json: Llama-3 8B, 8 layers, TP4 × DP2 on 8 GPUs.
inline Workload paper_workload() {
  return build_workload(
      read_scenario(std::string(FLUX_TEST_DATA_DIR) + "/../../examples/llama3-8b-8l-tp4-dp2.json"));
}

}  // namespace flux::testing
