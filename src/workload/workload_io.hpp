#pragma once
// Reading and writing flux.workload/1 (docs/formats.md). The writer streams: tasks are formatted
// one line each as they arrive, so generating a workload never needs the whole file in memory.
// Reading validates fully (ids, references, kinds, values, then validate_workload()).
// Complexity: linear in the number of tasks and edges.
#include <ostream>
#include <string>
#include <vector>

#include "workload/task_sink.hpp"
#include "workload/workload.hpp"

namespace flux::workload {

inline constexpr int kMaxGpus = 1 << 20;

[[nodiscard]] Workload read_workload(const std::string& path);
[[nodiscard]] Workload parse_workload(const std::string& text, const std::string& label);
[[nodiscard]] std::string workload_to_json(const Workload& w);
void write_workload_json(std::ostream& out, const Workload& w);  // the same text, task by task

// Writes tasks as they arrive. A predecessor's file id is its index, or, given `ids`, the id of
// that task in it (the tasks of a workload held whole).
class WorkloadJsonWriter final : public TaskSink {
 public:
  explicit WorkloadJsonWriter(std::ostream& out, const std::vector<Task>* ids = nullptr)
      : out_(out), ids_(ids) {}
  void begin(int gpus) override;
  void add(const Task& task) override;
  void end() override;

 private:
  std::ostream& out_;
  const std::vector<Task>* ids_;
  std::string line_;
  bool first_ = true;
};

const char* to_string(TaskKind k);

}  // namespace flux::workload
