#include "workload/workload_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/units.hpp"

namespace flux::workload {

void StatsSink::begin(int gpus) {
  stats_ = WorkloadStats{};
  stats_.gpus = gpus;
  finish_.clear();
  busy_.assign(static_cast<std::size_t>(gpus), 0.0);
}

void StatsSink::add(const Task& task) {
  double start = 0;
  for (int p : task.after) start = std::max(start, finish_[static_cast<std::size_t>(p)]);
  ++stats_.tasks;
  stats_.edges += static_cast<std::int64_t>(task.after.size());
  if (task.kind == TaskKind::compute) {
    ++stats_.compute_tasks;
    start += task.duration;
    busy_[static_cast<std::size_t>(task.gpu)] += task.duration;
    stats_.max_gpu_compute =
        std::max(stats_.max_gpu_compute, busy_[static_cast<std::size_t>(task.gpu)]);
  } else {
    ++stats_.send_tasks;
    stats_.total_bytes += task.bytes;
    stats_.bytes_per_group[task.group] += task.bytes;
    stats_.bytes_per_phase[task.phase] += task.bytes;
    ++stats_.sends_per_group[task.group];
  }
  finish_.push_back(start);
  stats_.compute_critical_path = std::max(stats_.compute_critical_path, start);
}

WorkloadStats workload_stats(const Workload& w) {
  StatsSink sink;
  replay_workload(w, sink);
  return sink.stats();
}

std::string stats_to_json(const WorkloadStats& s) {
  nlohmann::json j;
  j["format"] = "flux.workload-stats/1";
  j["gpus"] = s.gpus;
  j["tasks"] = s.tasks;
  j["compute_tasks"] = s.compute_tasks;
  j["send_tasks"] = s.send_tasks;
  j["edges"] = s.edges;
  j["total_bytes"] = s.total_bytes;
  j["bytes_per_group"] = s.bytes_per_group;
  j["bytes_per_phase"] = s.bytes_per_phase;
  j["sends_per_group"] = s.sends_per_group;
  j["compute_critical_path"] = s.compute_critical_path;
  j["max_gpu_compute"] = s.max_gpu_compute;
  return j.dump(2) + "\n";
}

std::string stats_to_text(const WorkloadStats& s) {
  std::string out = fmt::format(
      "gpus {}\ntasks {} ({} compute, {} send), {} edges\ntotal bytes {}\n"
      "compute critical path {}\nbusiest GPU compute {}\n",
      s.gpus, s.tasks, s.compute_tasks, s.send_tasks, s.edges, format_bytes(s.total_bytes),
      format_time(s.compute_critical_path), format_time(s.max_gpu_compute));
  for (const auto& [group, bytes] : s.bytes_per_group)
    out += fmt::format("group {:<6} {:>10} in {} sends\n", group.empty() ? "-" : group,
                       format_bytes(bytes), s.sends_per_group.at(group));
  for (const auto& [phase, bytes] : s.bytes_per_phase)
    out += fmt::format("phase {:<9} {:>10}\n", phase.empty() ? "-" : phase, format_bytes(bytes));
  return out;
}

}  // namespace flux::workload
