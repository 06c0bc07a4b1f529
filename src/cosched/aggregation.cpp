#include "cosched/aggregation.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace flux::cosched {
namespace {

bool same_pair(const workload::Task& a, const workload::Task& b) {
  return a.src == b.src && a.dst == b.dst;
}

// group[v] = the first task of v's group (chains first, then siblings of whole groups).
std::vector<int> group_tasks(const CoschedInstance& inst) {
  const auto& tasks = inst.workload.tasks;
  std::vector<int> group(tasks.size());
  for (std::size_t v = 0; v < tasks.size(); ++v) group[v] = static_cast<int>(v);
  for (int v : inst.topo) {
    const workload::Task& t = tasks[v];
    if (t.kind != workload::TaskKind::send || t.after.size() != 1) continue;
    const int a = t.after[0];
    if (tasks[a].kind == workload::TaskKind::send && inst.succ[a].size() == 1 &&
        same_pair(tasks[a], t))
      group[v] = group[a];
  }
  // Siblings: whole single-task groups with identical pair, predecessors and successors.
  std::map<std::tuple<int, int, std::vector<int>, std::vector<int>>, int> first;
  for (int v : inst.topo) {
    const workload::Task& t = tasks[v];
    if (t.kind != workload::TaskKind::send || group[v] != v) continue;
    if (std::any_of(inst.succ[v].begin(), inst.succ[v].end(), [&](int s) { return group[s] == v; }))
      continue;  // heads a chain
    std::vector<int> pred(t.after.begin(), t.after.end()),
        succ(inst.succ[v].begin(), inst.succ[v].end());
    std::sort(pred.begin(), pred.end());
    std::sort(succ.begin(), succ.end());
    auto [it, fresh] = first.try_emplace({t.src, t.dst, pred, succ}, v);
    if (!fresh) group[v] = it->second;
  }
  return group;
}

}  // namespace

Aggregation aggregate_messages(const CoschedInstance& inst) {
  const auto& tasks = inst.workload.tasks;
  const std::vector<int> group = group_tasks(inst);
  Aggregation out;
  out.workload.gpus = inst.workload.gpus;
  std::vector<int> new_index(tasks.size(), -1);
  for (int v : inst.topo) {
    const int g = group[v];
    if (new_index[g] < 0) {
      new_index[g] = static_cast<int>(out.workload.tasks.size());
      out.workload.tasks.push_back(tasks[g]);
      out.workload.tasks.back().after.clear();
      out.parts.emplace_back();
    }
    const int k = new_index[g];
    out.parts[k].push_back(v);
    workload::Task& merged = out.workload.tasks[k];
    if (v != g) {
      merged.bytes += tasks[v].bytes + inst.fabric.latency * inst.fabric.link_rate;
      ++out.merged;
    }
    for (int p : tasks[v].after)
      if (group[p] != g) merged.after.push_back(new_index[group[p]]);
  }
  for (workload::Task& t : out.workload.tasks) {
    std::sort(t.after.begin(), t.after.end());
    t.after.erase(std::unique(t.after.begin(), t.after.end()), t.after.end());
  }
  return out;
}

std::vector<Placement> expand_placements(const CoschedInstance& original,
                                         const CoschedInstance& aggregated, const Aggregation& agg,
                                         const std::vector<Placement>& placements) {
  std::vector<Placement> out(original.message_count());
  for (int m = 0; m < aggregated.message_count(); ++m) {
    double start = placements[m].start;
    for (int v : agg.parts[aggregated.messages[m]]) {
      out[original.message_of[v]] = {placements[m].sw, start};
      start += original.duration[v];
    }
  }
  return out;
}

}  // namespace flux::cosched
