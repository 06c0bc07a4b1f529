#include "cosched/instance.hpp"

#include <algorithm>
#include <memory>

#include "fabric/fabric_io.hpp"
#include "fabric/workload_fit.hpp"
#include "workload/validate.hpp"

namespace flux::cosched {
namespace {
CoschedInstance derive(std::shared_ptr<const workload::Workload> owner,
                       const fabric::Fabric& fabric, const std::string& label) {
  validate_fabric(fabric, "fabric");
  fabric::check_workload_fits(*owner, fabric, label);  // the simulator's rule, word for word
  const workload::Workload& w = *owner;
  CoschedInstance inst{.workload_owner = std::move(owner), .workload = w, .fabric = fabric};
  const int n = static_cast<int>(w.tasks.size());
  inst.succ = workload::successors(w);
  inst.message_of.assign(n, -1);
  inst.duration.resize(n);
  for (int v = 0; v < n; ++v) {
    const workload::Task& t = w.tasks[v];
    if (t.kind == workload::TaskKind::send) {
      inst.message_of[v] = static_cast<int>(inst.messages.size());
      inst.messages.push_back(v);
      inst.duration[v] = fabric.latency + t.bytes / fabric.link_rate;
    } else {
      inst.duration[v] = t.duration;
    }
  }
  inst.topo = checked_topological_order(w, inst.succ, label);
  inst.earliest.assign(n, 0.0);
  inst.tail.assign(n, 0.0);
  for (int v : inst.topo)
    for (int p : w.tasks[v].after)
      inst.earliest[v] = std::max(inst.earliest[v], inst.earliest[p] + inst.duration[p]);
  for (auto it = inst.topo.rbegin(); it != inst.topo.rend(); ++it)
    for (int s : inst.succ[*it])
      inst.tail[*it] = std::max(inst.tail[*it], inst.duration[s] + inst.tail[s]);
  for (int v = 0; v < n; ++v)
    inst.critical_path =
        std::max(inst.critical_path, inst.earliest[v] + inst.duration[v] + inst.tail[v]);
  return inst;
}
}  // namespace

CoschedInstance make_instance(workload::Workload workload, const fabric::Fabric& fabric,
                              const std::string& label) {
  return derive(std::make_shared<const workload::Workload>(std::move(workload)), fabric, label);
}

CoschedInstance make_instance_over(const workload::Workload& workload, const fabric::Fabric& fabric,
                                   const std::string& label) {
  // An owner that owns nothing (the aliasing constructor): the caller keeps `workload` alive.
  return derive(std::shared_ptr<const workload::Workload>(std::shared_ptr<void>(), &workload),
                fabric, label);
}

std::vector<double> task_starts(const CoschedInstance& inst,
                                const std::vector<double>& message_start) {
  std::vector<double> start(inst.workload.tasks.size(), 0.0);
  for (int v : inst.topo) {
    double ready = 0.0;
    for (int p : inst.workload.tasks[v].after) ready = std::max(ready, start[p] + inst.duration[p]);
    const int m = inst.message_of[v];
    start[v] = m >= 0 ? message_start[m] : ready;
  }
  return start;
}

}  // namespace flux::cosched
