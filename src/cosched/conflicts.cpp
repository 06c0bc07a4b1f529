#include "cosched/conflicts.hpp"

#include <algorithm>

namespace flux::cosched {

MessageClosure::MessageClosure(const CoschedInstance& inst) {
  const std::size_t words = (inst.messages.size() + 63) / 64;
  std::vector<std::vector<std::uint64_t>> task_rows(inst.workload.tasks.size());
  for (int v : inst.topo) {
    auto& row = task_rows[v];
    row.assign(words, 0);
    for (int p : inst.workload.tasks[v].after) {
      for (std::size_t w = 0; w < words; ++w) row[w] |= task_rows[p][w];
      if (const int k = inst.message_of[p]; k >= 0) row[k >> 6] |= std::uint64_t{1} << (k & 63);
    }
  }
  rows_.reserve(inst.messages.size());
  for (int v : inst.messages) rows_.push_back(std::move(task_rows[v]));
}

ConflictAnalysis analyze_conflicts(const CoschedInstance& inst, const Ancestry& closure,
                                   const std::vector<char>& subset) {
  const bool simplex = inst.fabric.circuit == fabric::CircuitKind::simplex;
  const int gpus = inst.fabric.gpus;
  // Users of each port (per switch the same): duplex port = GPU; simplex TX = g, RX = gpus + g.
  std::vector<std::vector<int>> users(simplex ? 2 * gpus : gpus);
  for (int m = 0; m < inst.message_count(); ++m) {
    if (!subset.empty() && !subset[m]) continue;
    const workload::Task& t = inst.message_task(m);
    users[t.src].push_back(m);
    users[t.dst + (simplex ? gpus : 0)].push_back(m);
  }
  std::vector<std::pair<int, int>> raw;
  for (const auto& list : users)
    for (std::size_t i = 0; i < list.size(); ++i)
      for (std::size_t j = i + 1; j < list.size(); ++j)
        raw.emplace_back(std::min(list[i], list[j]), std::max(list[i], list[j]));
  std::sort(raw.begin(), raw.end());
  raw.erase(std::unique(raw.begin(), raw.end()), raw.end());  // duplex pairs sharing both ports

  ConflictAnalysis out;
  for (auto [a, b] : raw) {
    const workload::Task& ta = inst.message_task(a);
    const workload::Task& tb = inst.message_task(b);
    const bool same_direction = ta.src == tb.src && ta.dst == tb.dst;
    const bool reversed = ta.src == tb.dst && ta.dst == tb.src;
    if (!simplex && reversed) {
      ++out.dropped_duplex;
      continue;
    }
    ConflictPair p{a, b, same_direction, false};
    if (closure.ancestor(b, a)) std::swap(p.first, p.second);
    p.ordered = closure.ancestor(p.first, p.second);
    out.reuse += p.same_circuit ? 1 : 0;
    (p.ordered ? out.fixed : out.free) += 1;
    out.pairs.push_back(p);
  }
  return out;
}

}  // namespace flux::cosched
