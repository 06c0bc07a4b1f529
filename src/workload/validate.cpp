#include "workload/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include "core/error.hpp"
#include "core/limits.hpp"

namespace flux::workload {

Successors successors(const Workload& w) {
  const std::size_t n = w.tasks.size();
  Successors s;
  s.offset.assign(n + 1, 0);
  for (const Task& t : w.tasks)
    for (int p : t.after) ++s.offset[static_cast<std::size_t>(p)];
  for (std::size_t i = 0; i < n; ++i) s.offset[i + 1] += s.offset[i];  // where each list ends
  s.target.resize(s.offset[n]);
  // Each list filled from its end, tasks in reverse, leaves the lists in index order and each
  // offset at its list's start: no separate fill cursor (8 bytes per task) to allocate.
  for (std::size_t v = n; v-- > 0;)
    for (int p : w.tasks[v].after)
      s.target[--s.offset[static_cast<std::size_t>(p)]] = static_cast<int>(v);
  return s;
}

namespace {

std::string task_ref(const Task& t) {
  return t.name.empty() ? fmt::format("{}", t.id) : fmt::format("{} ({})", t.id, t.name);
}

// Returns whether every task's predecessors come before it (the index order is topological).
bool check_fields(const Workload& w, const std::string& label) {
  const int n = static_cast<int>(w.tasks.size());
  bool first = true;
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const Task& t = w.tasks[i];
    // Formatted only for an error: once per task it was a tenth of a second per million tasks.
    const auto field = [i] { return fmt::format("/tasks/{}", i); };
    if (t.kind == TaskKind::send) {
      if (t.src < 0 || t.src >= w.gpus || t.dst < 0 || t.dst >= w.gpus)
        throw InputError(
            label, field(),
            fmt::format("send endpoints in [0, {}), got {} -> {}", w.gpus, t.src, t.dst));
      if (t.src == t.dst)
        throw InputError(label, field(), fmt::format("send with src != dst, got {} twice", t.src));
      if (!(t.bytes >= 0 && t.bytes <= kMaxBytes))
        throw InputError(
            label, field(),
            fmt::format("a byte count in [0, 2^53 = {:.0f}], got {:.6g}", kMaxBytes, t.bytes));
    } else {
      if (t.gpu < 0 || t.gpu >= w.gpus)
        throw InputError(label, field(), fmt::format("gpu in [0, {}), got {}", w.gpus, t.gpu));
      if (!(t.duration >= 0 && t.duration <= kMaxSeconds))
        throw InputError(label, field(),
                         fmt::format("a duration in [0, {:g}] s (the simulator's clock range), "
                                     "got {:.6g}",
                                     kMaxSeconds, t.duration));
    }
    for (int p : t.after)
      if (p < 0 || p >= n || p == static_cast<int>(i))
        throw InputError(label, field() + "/after", "indices of other existing tasks");
    first = first && predecessors_before(t, i);
  }
  return first;
}

// Is `prev` an ancestor of `cur`? Backward search that stops at other compute tasks of the same
// GPU (a path from prev would pass through the latest of them, which is checked in turn) and at
// tasks ordered before prev (they cannot descend from it).
bool reaches(const Workload& w, int prev, int cur, const std::vector<int>& pos,
             std::vector<int>& stamp) {
  const Task& c = w.tasks[static_cast<std::size_t>(cur)];
  if (std::find(c.after.begin(), c.after.end(), prev) != c.after.end()) return true;
  std::vector<int> stack{cur};
  stamp[static_cast<std::size_t>(cur)] = cur;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int p : w.tasks[static_cast<std::size_t>(v)].after) {
      if (p == prev) return true;
      const auto up = static_cast<std::size_t>(p);
      if (stamp[up] == cur || pos[up] < pos[static_cast<std::size_t>(prev)]) continue;
      stamp[up] = cur;
      const Task& t = w.tasks[up];
      if (t.kind == TaskKind::compute && t.gpu == c.gpu) continue;
      stack.push_back(p);
    }
  }
  return false;
}

struct UnorderedPair {
  int prev = -1, cur = -1;  // two compute tasks of one GPU, neither an ancestor of the other
};

// The first two consecutive compute tasks of one GPU in `order` (a topological order; `pos` the
// place of each task in it) that `after` leaves unordered, if any.
UnorderedPair first_unordered_pair(const Workload& w, std::span<const int> order,
                                   const std::vector<int>& pos) {
  std::vector<int> last(static_cast<std::size_t>(w.gpus), -1);
  std::vector<int> stamp(w.tasks.size(), -1);
  for (int v : order) {
    const Task& t = w.tasks[static_cast<std::size_t>(v)];
    if (t.kind != TaskKind::compute) continue;
    int& prev = last[static_cast<std::size_t>(t.gpu)];
    if (prev >= 0 && !reaches(w, prev, v, pos, stamp)) return {prev, v};
    prev = v;
  }
  return {};
}

void check_compute_chains(const Workload& w, const std::vector<int>& order,
                          const std::string& label) {
  std::vector<int> pos(w.tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    pos[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  const UnorderedPair u = first_unordered_pair(w, order, pos);
  if (u.prev < 0) return;
  const Task& t = w.tasks[static_cast<std::size_t>(u.cur)];
  throw InputError(
      label, "/tasks",
      fmt::format("compute tasks of gpu {} ordered by `after`, but tasks {} and "
                  "{} are unordered",
                  t.gpu, task_ref(w.tasks[static_cast<std::size_t>(u.prev)]), task_ref(t)));
}

// Tasks listed after their predecessors (as every generator emits them) have the index order as
// a topological one: the compute chains are checked in it without Kahn's algorithm and its
// successor lists (about 0.5 GB on the 18.5 M-task iteration). Chains hold in every topological
// order or in none, so this only decides that they hold; a failure is reported from Kahn's order.
// Requires every task's predecessors before it.
bool compute_chains_hold_in_index_order(const Workload& w) {
  std::vector<int> identity(w.tasks.size());
  std::iota(identity.begin(), identity.end(), 0);
  return first_unordered_pair(w, identity, identity).prev < 0;  // the order is its own positions
}

}  // namespace

std::vector<int> topological_order(const Workload& w) {
  return topological_order(w, successors(w));
}

std::vector<int> topological_order(const Workload& w, const Successors& s) {
  const std::size_t n = w.tasks.size();
  std::vector<int> indegree(n);
  std::deque<int> ready;
  for (std::size_t v = 0; v < n; ++v) {
    indegree[v] = static_cast<int>(w.tasks[v].after.size());
    if (indegree[v] == 0) ready.push_back(static_cast<int>(v));
  }
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    const int v = ready.front();
    ready.pop_front();
    order.push_back(v);
    const auto u = static_cast<std::size_t>(v);
    for (std::size_t e = s.offset[u]; e < s.offset[u + 1]; ++e)
      if (--indegree[static_cast<std::size_t>(s.target[e])] == 0) ready.push_back(s.target[e]);
  }
  if (order.size() != n) order.clear();
  return order;
}

std::vector<std::int64_t> find_cycle(const Workload& w) {
  enum : char { white, grey, black };
  std::vector<char> color(w.tasks.size(), white);
  std::vector<std::pair<int, std::size_t>> stack;  // task, next predecessor to visit
  for (std::size_t root = 0; root < w.tasks.size(); ++root) {
    if (color[root] != white) continue;
    stack.assign(1, {static_cast<int>(root), 0});
    color[root] = grey;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const auto& after = w.tasks[static_cast<std::size_t>(v)].after;
      if (next == after.size()) {
        color[static_cast<std::size_t>(v)] = black;
        stack.pop_back();
        continue;
      }
      const int p = after[next++];
      const auto up = static_cast<std::size_t>(p);
      if (color[up] == white) {
        color[up] = grey;
        stack.emplace_back(p, 0);
      } else if (color[up] == grey) {
        // The stack from p to the top is a path of `after` edges back to p: a cycle. Listed in
        // dependency order (each task comes after the previous one).
        std::vector<std::int64_t> cycle;
        auto it = std::find_if(stack.begin(), stack.end(), [&](auto& e) { return e.first == p; });
        for (; it != stack.end(); ++it)
          cycle.push_back(w.tasks[static_cast<std::size_t>(it->first)].id);
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
    }
  }
  return {};
}

std::vector<int> checked_topological_order(const Workload& w, const std::string& label) {
  return checked_topological_order(w, successors(w), label);
}

std::vector<int> checked_topological_order(const Workload& w, const Successors& s,
                                           const std::string& label) {
  std::vector<int> order = topological_order(w, s);
  if (order.size() != w.tasks.size()) {
    const auto cycle = find_cycle(w);
    throw InputError(label, "/tasks",
                     fmt::format("an acyclic graph, but `after` has the cycle {} -> {}",
                                 fmt::join(cycle, " -> "), cycle.front()));
  }
  return order;
}

void validate_workload(const Workload& w, const std::string& label) {
  if (w.gpus < 1) throw InputError(label, "/gpus", "at least 1 GPU");
  const bool predecessors_first = check_fields(w, label);
  if (predecessors_first && compute_chains_hold_in_index_order(w)) return;
  check_compute_chains(w, checked_topological_order(w, label), label);
}

}  // namespace flux::workload
