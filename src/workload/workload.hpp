#pragma once
// One training iteration as a DAG of compute and send tasks: flux.workload/1 (docs/formats.md).
#include <cstdint>
#include <string>
#include <vector>

#include "workload/index_list.hpp"
#include "workload/tag.hpp"
#include "workload/task_name.hpp"

namespace flux::workload {

enum class TaskKind : std::uint8_t { compute, send };

// Fields ordered by size so the record has no padding: 96 bytes (was 176), plus the predecessor
// list's heap block for the few tasks with more than three predecessors (names are shared). The
// 1,024-GPU iteration holds 18 M of these.
struct Task {
  std::int64_t id = 0;           // id in the file; unique
  double bytes = 0.0;            // send: payload
  double duration = 0.0;         // compute: seconds
  std::int64_t collective = -1;  // optional tag (absent = -1)
  TaskName name;
  IndexList after;  // predecessors, as indices into Workload::tasks (not file ids)
  // Optional tags (absent = -1 / empty).
  Tag phase;               // fwd, bwd, dp, ...
  Tag group;               // tp, pp, dp, ep, cp
  int gpu = -1;            // compute: the GPU whose compute stream runs it
  int src = -1, dst = -1;  // send: endpoints, src != dst
  int layer = -1;
  int microbatch = -1;
  TaskKind kind = TaskKind::compute;
};
static_assert(sizeof(Task) <= 96, "a Task is held 18 M times: keep it small");

struct Workload {
  int gpus = 0;
  std::vector<Task> tasks;
};

}  // namespace flux::workload
