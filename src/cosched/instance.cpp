#include "cosched/instance.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace flux {
namespace {

void check_fabric(const Fabric& f) {
  auto bad = [](const char* field, const std::string& what) {
    throw InputError("fabric", field, what);
  };
  if (f.gpus < 1) bad("/gpus", "at least 1 GPU");
  if (f.ocs < 1) bad("/ocs", "at least 1 OCS");
  if (!(f.link_rate > 0.0) || !std::isfinite(f.link_rate)) bad("/link_rate", "a positive rate");
  if (!(f.latency >= 0.0) || !std::isfinite(f.latency)) bad("/latency", "a non-negative time");
  if (!(f.reconfig_delay >= 0.0) || !std::isfinite(f.reconfig_delay))
    bad("/reconfig_delay", "a non-negative time");
}

void check_task(const Task& t, std::size_t i, int ports, int ntasks, const std::string& label) {
  const std::string at = fmt::format("/tasks/{}", i);
  auto in_fabric = [&](int g, const char* field) {
    if (g < 0 || g >= ports)
      throw InputError(label, at + field,
                       fmt::format("a GPU index in [0, {}) — the fabric has only {} ports per OCS",
                                   ports, ports));
  };
  if (t.kind == TaskKind::send) {
    in_fabric(t.src, "/src");
    in_fabric(t.dst, "/dst");
    if (t.src == t.dst)
      throw InputError(label, at + "/dst", fmt::format("a GPU other than src {}", t.src));
    if (!(t.bytes >= 0.0) || !std::isfinite(t.bytes))
      throw InputError(label, at + "/bytes", "a non-negative size");
  } else {
    in_fabric(t.gpu, "/gpu");
    if (!(t.duration >= 0.0) || !std::isfinite(t.duration))
      throw InputError(label, at + "/duration", "a non-negative duration");
  }
  for (int p : t.after)
    if (p < 0 || p >= ntasks) throw InputError(label, at + "/after", "indices of existing tasks");
}

// Kahn's algorithm; on a cycle, walks predecessors inside the unsorted rest to name one.
std::vector<int> topological_order(const Workload& w, const std::vector<std::vector<int>>& succ,
                                   const std::string& label) {
  const int n = static_cast<int>(w.tasks.size());
  std::vector<int> indeg(n), order;
  order.reserve(n);
  for (int v = 0; v < n; ++v) indeg[v] = static_cast<int>(w.tasks[v].after.size());
  for (int v = 0; v < n; ++v)
    if (indeg[v] == 0) order.push_back(v);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int s : succ[order[k]])
      if (--indeg[s] == 0) order.push_back(s);
  if (static_cast<int>(order.size()) == n) return order;
  int v = static_cast<int>(std::find_if(indeg.begin(), indeg.end(), [](int d) { return d > 0; }) -
                           indeg.begin());
  std::vector<int> seen(n, -1), path;
  while (seen[v] < 0) {
    seen[v] = static_cast<int>(path.size());
    path.push_back(v);
    v = *std::find_if(w.tasks[v].after.begin(), w.tasks[v].after.end(),
                      [&](int p) { return indeg[p] > 0; });
  }
  std::string cycle;
  for (std::size_t k = path.size(); k-- > static_cast<std::size_t>(seen[v]);)
    cycle += fmt::format("{} -> ", w.tasks[path[k]].id);
  cycle += std::to_string(w.tasks[v].id);
  throw InputError(label, "/tasks", "an acyclic graph, found the cycle " + cycle);
}

}  // namespace

CoschedInstance make_instance(Workload workload, const Fabric& fabric, const std::string& label) {
  check_fabric(fabric);
  if (workload.gpus > fabric.gpus)
    throw InputError("fabric", "/gpus",
                     fmt::format("at least {} ports per OCS (the workload's GPUs)", workload.gpus));
  CoschedInstance inst;
  inst.workload = std::move(workload);
  inst.fabric = fabric;
  const Workload& w = inst.workload;
  const int n = static_cast<int>(w.tasks.size());
  inst.succ.resize(n);
  inst.message_of.assign(n, -1);
  inst.duration.resize(n);
  for (int v = 0; v < n; ++v) {
    const Task& t = w.tasks[v];
    check_task(t, v, fabric.gpus, n, label);
    for (int p : t.after) inst.succ[p].push_back(v);
    if (t.kind == TaskKind::send) {
      inst.message_of[v] = static_cast<int>(inst.messages.size());
      inst.messages.push_back(v);
      inst.duration[v] = fabric.latency + t.bytes / fabric.link_rate;
    } else {
      inst.duration[v] = t.duration;
    }
  }
  inst.topo = topological_order(w, inst.succ, label);
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

}  // namespace flux
