#include "cosched/greedy.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "cosched/port_book.hpp"

namespace flux::cosched {
namespace {

// Pending (not yet placed) messages per circuit, by earliest start: the look-ahead's "next use".
class NextUse {
 public:
  NextUse(const CoschedInstance& inst, const std::vector<char>& pending)
      : inst_(inst), done_(pending.size(), 0) {
    for (int v : inst.topo) {
      const int m = inst.message_of[v];
      if (m >= 0 && pending[m])
        lists_[key(inst.message_task(m).src, inst.message_task(m).dst)].push_back(m);
    }
    for (auto& [k, list] : lists_)
      std::stable_sort(list.begin(), list.end(), [&](int a, int b) {
        return inst.earliest[inst.messages[a]] < inst.earliest[inst.messages[b]];
      });
  }
  void placed(int m) { done_[m] = 1; }
  // Earliest start of the next pending message on circuit a–b, or +inf.
  double next(int a, int b) {
    auto it = lists_.find(key(a, b));
    if (it == lists_.end()) return INFINITY;
    std::size_t& pos = cursor_[it->first];
    const std::vector<int>& list = it->second;
    while (pos < list.size() && done_[list[pos]]) ++pos;
    return pos < list.size() ? inst_.earliest[inst_.messages[list[pos]]] : INFINITY;
  }

 private:
  long long key(int a, int b) const {
    if (inst_.fabric.circuit == fabric::CircuitKind::duplex && a > b) std::swap(a, b);
    return static_cast<long long>(a) * inst_.fabric.gpus + b;
  }
  const CoschedInstance& inst_;
  std::unordered_map<long long, std::vector<int>> lists_;
  std::unordered_map<long long, std::size_t> cursor_;
  std::vector<char> done_;
};

int choose_switch(const CoschedInstance& inst, const PortBook& book, NextUse& next,
                  const workload::Task& t, double ready, bool lookahead) {
  const double tol = 1e-9 * std::max(ready, inst.fabric.reconfig_delay) + 1e-15;
  int best = 0;
  std::tuple<double, int, int, double> best_key{INFINITY, 0, 0, 0.0};
  for (int s = 0; s < inst.fabric.ocs; ++s) {
    const double cand = book.earliest(s, t.src, t.dst, ready);
    std::tuple<double, int, int, double> k{cand, 0, 0, 0.0};
    if (lookahead) {
      int pending = 0;
      double soonest = INFINITY;
      for (const auto& [a, b] : book.displaced(s, t.src, t.dst)) {
        const double nu = next.next(a, b);
        pending += std::isfinite(nu) ? 1 : 0;
        soonest = std::min(soonest, nu);
      }
      k = {cand, book.reuses(s, t.src, t.dst) ? 0 : 1, pending, -soonest};
    }
    const bool earlier = cand < std::get<0>(best_key) - tol;
    const bool tie = !earlier && cand <= std::get<0>(best_key) + tol;
    if (earlier || (tie && std::tie(std::get<1>(k), std::get<2>(k), std::get<3>(k)) <
                               std::tie(std::get<1>(best_key), std::get<2>(best_key),
                                        std::get<3>(best_key)))) {
      best = s;
      best_key = k;
    }
  }
  return best;
}

}  // namespace

std::vector<Placement> flux_greedy(const CoschedInstance& inst, const GreedyOptions& options,
                                   const std::vector<Placement>& fixed,
                                   const std::vector<char>& to_place) {
  const auto& tasks = inst.workload.tasks;
  const int n = static_cast<int>(tasks.size()), nm = inst.message_count();
  std::vector<Placement> out = fixed.empty() ? std::vector<Placement>(nm) : fixed;
  std::vector<char> place(nm, 1);
  for (int m = 0; m < nm; ++m) place[m] = out[m].sw < 0 && (to_place.empty() || to_place[m]);
  PortBook book(inst.fabric);
  if (!fixed.empty())  // sorting millions of unplaced messages would only cost time
    for (int m : start_order(inst, out))
      if (out[m].sw >= 0) {
        const workload::Task& t = inst.message_task(m);
        book.place(out[m].sw, t.src, t.dst, out[m].start + inst.duration[inst.messages[m]]);
      }
  NextUse next(inst, place);
  std::vector<int> missing(n);
  std::vector<double> ready(n, 0.0);
  using Item = std::tuple<double, double, int>;  // ready, -tail, task
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (int v = 0; v < n; ++v) {
    missing[v] = static_cast<int>(tasks[v].after.size());
    if (missing[v] == 0) queue.emplace(0.0, -inst.tail[v], v);
  }
  while (!queue.empty()) {
    const auto [r, neg_tail, v] = queue.top();
    queue.pop();
    const int m = inst.message_of[v];
    double start = r;
    if (m >= 0 && place[m]) {
      const workload::Task& t = tasks[v];
      const int sw = options.switch_of.empty()
                         ? choose_switch(inst, book, next, t, r, options.lookahead)
                         : options.switch_of[m];
      start = book.earliest(sw, t.src, t.dst, r);
      book.place(sw, t.src, t.dst, start + inst.duration[v]);
      next.placed(m);
      out[m] = {sw, start};
    } else if (m >= 0) {
      if (out[m].sw < 0) continue;  // left for a later window: descendants wait
      start = out[m].start;
    }
    for (int s : inst.succ[v]) {
      ready[s] = std::max(ready[s], start + inst.duration[v]);
      if (--missing[s] == 0) queue.emplace(ready[s], -inst.tail[s], s);
    }
  }
  return out;
}

}  // namespace flux::cosched
