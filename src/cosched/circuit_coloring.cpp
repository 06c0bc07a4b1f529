#include "cosched/circuit_coloring.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace flux::cosched {

std::vector<int> circuit_coloring(const CoschedInstance& inst) {
  struct Pair {
    int a, b;
    int messages = 0;
    double bytes = 0.0;
    int color = 0;
  };
  const bool duplex = inst.fabric.circuit == fabric::CircuitKind::duplex;
  std::map<std::pair<int, int>, int> index;  // (a, b) -> position in `pairs`
  std::vector<Pair> pairs;
  std::vector<int> pair_of(inst.message_count());
  for (int m = 0; m < inst.message_count(); ++m) {
    const workload::Task& t = inst.message_task(m);
    const std::pair<int, int> key = duplex
                                        ? std::pair{std::min(t.src, t.dst), std::max(t.src, t.dst)}
                                        : std::pair{t.src, t.dst};
    const auto [it, fresh] = index.emplace(key, static_cast<int>(pairs.size()));
    if (fresh) pairs.push_back(Pair{key.first, key.second});
    pair_of[m] = it->second;
    ++pairs[it->second].messages;
    pairs[it->second].bytes += t.bytes;
  }
  std::vector<int> by_load(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) by_load[k] = static_cast<int>(k);
  std::stable_sort(by_load.begin(), by_load.end(), [&](int x, int y) {
    return std::tie(pairs[x].messages, pairs[x].bytes) >
           std::tie(pairs[y].messages, pairs[y].bytes);
  });
  // use[port][color]: messages of coloured pairs at a port (simplex: TX and RX ports apart).
  const int ocs = inst.fabric.ocs, gpus = inst.fabric.gpus;
  std::vector<std::vector<long long>> use(2 * static_cast<std::size_t>(gpus),
                                          std::vector<long long>(ocs, 0));
  for (int k : by_load) {
    Pair& p = pairs[k];
    const int pa = p.a, pb = duplex ? p.b : gpus + p.b;
    int best = 0;
    for (int c = 1; c < ocs; ++c)
      if (use[pa][c] + use[pb][c] < use[pa][best] + use[pb][best]) best = c;
    p.color = best;
    use[pa][best] += p.messages;
    use[pb][best] += p.messages;
  }
  std::vector<int> out(inst.message_count());
  for (int m = 0; m < inst.message_count(); ++m) out[m] = pairs[pair_of[m]].color;
  return out;
}

}  // namespace flux::cosched
