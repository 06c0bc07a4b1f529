#pragma once
// Summary of a workload, computed while tasks stream by (TaskSink) or from a Workload: task
// counts, bytes per group and per phase, busiest GPU compute, and the compute critical path
// (longest path with compute durations and instantaneous sends, i.e. tau = 0 and
// infinite bandwidth). Needs tasks in an order where predecessors come first (generator output,
// or topological_order() for files). Memory: 8 bytes per task. Time: O(tasks + edges).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workload/task_sink.hpp"

namespace flux::workload {

struct WorkloadStats {
  int gpus = 0;
  std::int64_t tasks = 0;
  std::int64_t compute_tasks = 0;
  std::int64_t send_tasks = 0;
  std::int64_t edges = 0;
  double total_bytes = 0;
  std::map<std::string, double> bytes_per_group;  // "" = untagged
  std::map<std::string, double> bytes_per_phase;
  std::map<std::string, std::int64_t> sends_per_group;
  double compute_critical_path = 0;  // seconds
  double max_gpu_compute = 0;        // seconds of compute on the busiest GPU
};

class StatsSink final : public TaskSink {
 public:
  void begin(int gpus) override;
  void add(const Task& task) override;
  [[nodiscard]] const WorkloadStats& stats() const { return stats_; }

 private:
  WorkloadStats stats_;
  std::vector<double> finish_;  // compute-only finish time per task index
  std::vector<double> busy_;    // compute seconds per GPU
};

[[nodiscard]] WorkloadStats workload_stats(const Workload& w);
[[nodiscard]] std::string stats_to_json(const WorkloadStats& s);
[[nodiscard]] std::string stats_to_text(const WorkloadStats& s);

}  // namespace flux::workload
