#pragma once
// Where generated tasks go. Generators and importers emit tasks in an order where every
// predecessor comes first (index = emission order), so a sink can write, count or aggregate them
// one at a time without holding the whole iteration: this is what lets the 1,024-GPU scenario
// stream to disk in bounded memory.
#include <vector>

#include "workload/workload.hpp"

namespace flux::workload {

class TaskSink {
 public:
  virtual ~TaskSink() = default;
  virtual void begin(int gpus) { (void)gpus; }
  // `task.after` holds positions of earlier tasks (0-based emission order); for generated
  // workloads `task.id` equals the position, for replayed files it is the file id.
  virtual void add(const Task& task) = 0;
  virtual void end() {}
};

// Collects the tasks into a Workload (tests, small scenarios, the schedulers).
class WorkloadSink final : public TaskSink {
 public:
  WorkloadSink() = default;
  // Room for `tasks` tasks up front: the array is not grown (copied) while it fills.
  explicit WorkloadSink(std::size_t tasks) { reserve(tasks); }
  // The same once the count (or a bound on it) is known; untouched room costs address space, not
  // memory.
  void reserve(std::size_t tasks) { workload_.tasks.reserve(tasks); }
  void begin(int gpus) override { workload_.gpus = gpus; }
  void add(const Task& task) override { workload_.tasks.push_back(task); }
  [[nodiscard]] Workload take() { return std::move(workload_); }

 private:
  Workload workload_;
};

// Forwards every task to several sinks (e.g. the JSON writer and the demand aggregator).
class TeeSink final : public TaskSink {
 public:
  explicit TeeSink(std::vector<TaskSink*> sinks) : sinks_(std::move(sinks)) {}
  void begin(int gpus) override {
    for (auto* s : sinks_) s->begin(gpus);
  }
  void add(const Task& task) override {
    for (auto* s : sinks_) s->add(task);
  }
  void end() override {
    for (auto* s : sinks_) s->end();
  }

 private:
  std::vector<TaskSink*> sinks_;
};

// Streams a workload read from a file into `sink` in topological order: `after` is remapped to
// emission positions, `id` keeps the file id. O(tasks + edges).
void replay_workload(const Workload& w, TaskSink& sink);

}  // namespace flux::workload
