#pragma once
// One training iteration as a DAG of compute and send tasks: flux.workload/1 (docs/formats.md).
#include <cstdint>
#include <string>
#include <vector>

namespace flux::workload {

enum class TaskKind { compute, send };

struct Task {
  std::int64_t id = 0;  // id in the file; unique
  TaskKind kind = TaskKind::compute;
  int gpu = -1;            // compute: the GPU whose compute stream runs it
  int src = -1, dst = -1;  // send: endpoints, src != dst
  double bytes = 0.0;      // send: payload
  double duration = 0.0;   // compute: seconds
  std::string name;
  std::vector<int> after;  // predecessors, as indices into Workload::tasks (not file ids)
  // Optional tags (absent = -1 / empty).
  int layer = -1;
  int microbatch = -1;
  std::string phase;  // fwd, bwd, dp, ...
  std::string group;  // tp, pp, dp, ep, cp
  std::int64_t collective = -1;
};

struct Workload {
  int gpus = 0;
  std::vector<Task> tasks;
};

}  // namespace flux::workload
