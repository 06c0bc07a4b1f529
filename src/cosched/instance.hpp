#pragma once
// A validated co-scheduling instance: one training-iteration DAG (flux.workload/1) on a per-port
// OCS fabric (flux.fabric/1), plus what every Flux scheduler derives from it: the message list,
// task durations p_v = duration (compute) or α + bytes/B (send), a topological order, earliest
// starts with τ = 0 and no port conflicts, and tails (longest path after a task ends).
// Model: the fabric model of docs/models.md. Complexity O(V + E).
#include <memory>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "workload/validate.hpp"
#include "workload/workload.hpp"

namespace flux::cosched {

struct CoschedInstance {
  // The workload, owned by the instance or borrowed from a caller that keeps it alive
  // (make_instance_over): the 1,024-GPU iteration's tasks take GBs, too many to copy.
  std::shared_ptr<const workload::Workload> workload_owner;
  const workload::Workload& workload;
  fabric::Fabric fabric;
  std::vector<int> messages{};     // message index -> task index
  std::vector<int> message_of{};   // task index -> message index, -1 for compute
  std::vector<double> duration{};  // p_v per task
  workload::Successors succ{};     // successors per task (one array: 4 B per edge)
  std::vector<int> topo{};         // tasks in topological order
  std::vector<double> earliest{};  // ES_v: τ = 0, ports unconstrained
  std::vector<double> tail{};      // longest path from the end of v to the iteration end
  double critical_path = 0.0;      // max_v ES_v + p_v + tail_v (a lower bound)

  [[nodiscard]] int message_count() const { return static_cast<int>(messages.size()); }
  [[nodiscard]] const workload::Task& message_task(int m) const {
    return workload.tasks[messages[m]];
  }
};

// Validates and derives. Throws InputError for a bad fabric, and (file = `label`) for a workload
// the simulator would refuse on this fabric: the same rules, in the same words (another GPU count
// than the fabric's, a cycle, a send to itself, negative sizes or durations, ...).
// Takes the workload by value: move a large one in.
[[nodiscard]] CoschedInstance make_instance(workload::Workload workload,
                                            const fabric::Fabric& fabric,
                                            const std::string& label = "workload");
// The same over `workload` without copying it: the caller keeps it alive (and unchanged) as long
// as the instance.
[[nodiscard]] CoschedInstance make_instance_over(const workload::Workload& workload,
                                                 const fabric::Fabric& fabric,
                                                 const std::string& label = "workload");

// Finish time of every task when messages start at `message_start` (index = message) and compute
// tasks start as soon as their predecessors finish. Returns per-task start times.
[[nodiscard]] std::vector<double> task_starts(const CoschedInstance& inst,
                                              const std::vector<double>& message_start);

}  // namespace flux::cosched
