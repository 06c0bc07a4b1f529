#pragma once
// Emits tasks to a TaskSink while keeping each GPU's compute stream a chain: every
// compute task is placed after the GPU's previous compute task. Indices are assigned in emission
// order, so predecessors always come first. Memory: O(GPUs), independent of the task count.
#include <cstdint>
#include <string>
#include <vector>

#include "workload/task_sink.hpp"

namespace flux::workload {

struct TaskTags {
  int layer = -1;
  int microbatch = -1;
  const char* phase = "";
  const char* group = "";
  std::int64_t collective = -1;
};

using Deps = std::vector<int>;  // task indices; an empty list means "ready at t = 0"

class TaskEmitter {
 public:
  TaskEmitter(TaskSink& sink, int gpus);
  ~TaskEmitter();
  TaskEmitter(const TaskEmitter&) = delete;
  TaskEmitter& operator=(const TaskEmitter&) = delete;

  // Runs after the GPU's previous compute task and after `deps`.
  int compute(int gpu, double seconds, std::string name, const TaskTags& tags,
              const Deps& deps = {});
  int send(int src, int dst, double bytes, std::string name, const TaskTags& tags,
           const Deps& deps);
  // Last compute task of `gpu`, or -1.
  int tail(int gpu) const { return tail_[static_cast<std::size_t>(gpu)]; }
  Deps tail_deps(int gpu) const;
  std::int64_t new_collective() { return next_collective_++; }
  std::int64_t emitted() const { return next_; }
  void finish();

 private:
  int emit(const TaskTags& tags);
  void set_name(const std::string& name);
  TaskSink& sink_;
  std::vector<int> tail_;
  Task scratch_;
  std::int64_t next_ = 0;
  std::int64_t next_collective_ = 0;
  bool finished_ = false;
};

}  // namespace flux::workload
