#include "workload/task_sink.hpp"

#include "workload/validate.hpp"

namespace flux::workload {

void replay_workload(const Workload& w, TaskSink& sink) {
  const std::vector<int> order = topological_order(w);
  std::vector<int> position(w.tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  sink.begin(w.gpus);
  Task t;
  for (int v : order) {
    t = w.tasks[static_cast<std::size_t>(v)];
    for (int& p : t.after) p = position[static_cast<std::size_t>(p)];
    sink.add(t);
  }
  sink.end();
}

}  // namespace flux::workload
