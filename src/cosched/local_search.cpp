#include "cosched/local_search.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/rng.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {
namespace {

using Clock = std::chrono::steady_clock;

struct State {
  std::vector<int> switch_of, order;
  double time = 0.0, start_sum = 0.0;
};

// The critical path's messages in time order, and where a port (not the DAG) made a message
// wait for the one before it: blocked[k] means chain[k − 1] delayed chain[k] on a shared port.
struct CriticalChain {
  std::vector<int> messages;
  std::vector<char> blocked;
};

enum class MoveKind { before, after, switch_ocs, switch_circuit };

// before: `message` (and its ancestors listed in between) moves just before `target`;
// after: `message` (and its descendants listed in between) moves just after `target`;
// switch_ocs: `message` moves to OCS `target`;
// switch_circuit: every message of `message`'s collective on the same GPU pair moves to OCS
// `target` (a ring step's circuit changes OCS as a whole, not one step at a time).
struct Move {
  MoveKind kind;
  int message, target;
};

// Messages of one collective (the workload's `collective` tag) between the same two GPUs; a
// message without the tag is alone.
std::vector<std::vector<int>> circuit_groups(const CoschedInstance& inst) {
  std::map<std::tuple<std::int64_t, int, int>, std::vector<int>> by_key;
  for (int m = 0; m < inst.message_count(); ++m) {
    const workload::Task& t = inst.message_task(m);
    if (t.collective >= 0)
      by_key[{t.collective, std::min(t.src, t.dst), std::max(t.src, t.dst)}].push_back(m);
  }
  std::vector<std::vector<int>> groups(inst.message_count());
  for (int m = 0; m < inst.message_count(); ++m) groups[m] = {m};
  for (const auto& [key, members] : by_key)
    for (int m : members) groups[m] = members;
  return groups;
}

class Search {
 public:
  Search(const CoschedInstance& inst, const Ancestry& closure, const LocalSearchOptions& options)
      : inst_(inst),
        closure_(closure),
        options_(options),
        circuit_group_(circuit_groups(inst)),
        list_(inst),
        rng_(options.seed) {}

  LocalSearchResult run(State start);

 private:
  [[nodiscard]] bool out_of_budget() const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
    return elapsed >= options_.time_limit ||
           (options_.max_evaluations > 0 && evaluations_ >= options_.max_evaluations);
  }
  bool evaluate(State& s);
  [[nodiscard]] CriticalChain critical_chain() const;
  [[nodiscard]] std::vector<Move> moves_of(const CriticalChain& chain) const;
  [[nodiscard]] State apply(const State& s, const Move& mv) const;
  bool descend(State& s);
  void kick(State& s);

  const CoschedInstance& inst_;
  const Ancestry& closure_;
  const LocalSearchOptions& options_;
  std::vector<std::vector<int>> circuit_group_;  // per message: its collective's same-pair sends
  ListScheduler list_;
  Rng rng_;
  Clock::time_point t0_ = Clock::now();
  std::int64_t evaluations_ = 0;
};

bool better(const State& a, const State& b) {
  const double tol = 1e-12 * std::max(1.0, b.time);
  if (a.time < b.time - tol) return true;
  return a.time <= b.time + tol && a.start_sum < b.start_sum * (1 - 1e-12);
}

// Schedules `s` and fills its times; the list scheduler then describes `s`.
bool Search::evaluate(State& s) {
  ++evaluations_;
  if (!list_.run(s.switch_of, s.order)) return false;
  s.time = list_.iteration_time();
  s.start_sum = 0.0;
  const auto& st = list_.task_start();
  for (int v : inst_.messages) s.start_sum += st[v];
  return true;
}

// Walks back from the last task: through the blocking message when a port delayed a message,
// else through the predecessor that finished last.
CriticalChain Search::critical_chain() const {
  const auto& start = list_.task_start();
  const auto& tasks = inst_.workload.tasks;
  const double tol = 1e-12 * std::max(1.0, list_.iteration_time());
  int v = 0;
  for (int u = 0; u < static_cast<int>(tasks.size()); ++u)
    if (start[u] + inst_.duration[u] > start[v] + inst_.duration[v]) v = u;
  CriticalChain chain;
  for (bool port_link = false;;) {
    int pred = -1;
    double ready = 0.0;
    for (int p : tasks[v].after)
      if (pred < 0 || start[p] + inst_.duration[p] > ready) {
        pred = p;
        ready = start[p] + inst_.duration[p];
      }
    const int m = inst_.message_of[v];
    if (m >= 0) {
      chain.messages.push_back(m);
      chain.blocked.push_back(0);
      if (port_link) chain.blocked[chain.blocked.size() - 2] = 1;
    }
    port_link = m >= 0 && list_.blocker()[m] >= 0 && start[v] > ready + tol;
    if (port_link)
      v = inst_.messages[list_.blocker()[m]];
    else if (pred >= 0)
      v = pred;
    else
      break;
  }
  std::reverse(chain.messages.begin(), chain.messages.end());
  std::reverse(chain.blocked.begin(), chain.blocked.end());
  return chain;
}

// Around every port delay (b, m) on the chain: m before b or before up to `reach` earlier chain
// messages, b after m or after up to `reach` later ones — so a long message can jump a whole
// collective — and m or b to another OCS.
std::vector<Move> Search::moves_of(const CriticalChain& chain) const {
  constexpr int reach = 8;  // 4 and 16 did worse on the paper workload
  std::vector<Move> moves;
  const int n = static_cast<int>(chain.messages.size());
  for (int k = 1; k < n; ++k) {
    if (!chain.blocked[k]) continue;
    const int b = chain.messages[k - 1], m = chain.messages[k];
    for (int j = k - 1; j >= std::max(0, k - reach); --j)
      if (!closure_.ancestor(chain.messages[j], m))
        moves.push_back({MoveKind::before, m, chain.messages[j]});
    for (int j = k; j < std::min(n, k + reach); ++j)
      if (!closure_.ancestor(b, chain.messages[j]))
        moves.push_back({MoveKind::after, b, chain.messages[j]});
    for (int s = 0; s < inst_.fabric.ocs; ++s)
      for (const int x : {m, b}) {
        moves.push_back({MoveKind::switch_ocs, x, s});
        if (circuit_group_[x].size() > 1) moves.push_back({MoveKind::switch_circuit, x, s});
      }
  }
  return moves;
}

// Moves a message's block before or after the target in the list order; both results stay
// linear extensions, because whatever lies between them and must precede the message (or follow
// it) travels along.
State Search::apply(const State& s, const Move& mv) const {
  State out = s;
  if (mv.kind == MoveKind::switch_ocs) {
    out.switch_of[mv.message] = mv.target;
    return out;
  }
  if (mv.kind == MoveKind::switch_circuit) {
    for (int x : circuit_group_[mv.message]) out.switch_of[x] = mv.target;
    return out;
  }
  const bool before = mv.kind == MoveKind::before;
  const int lo = before ? mv.target : mv.message, hi = before ? mv.message : mv.target;
  const auto first = std::find(out.order.begin(), out.order.end(), lo);
  const auto last = std::find(first, out.order.end(), hi) + 1;
  if (before)
    std::stable_partition(
        first, last, [&](int x) { return x == mv.message || closure_.ancestor(x, mv.message); });
  else
    std::stable_partition(
        first, last, [&](int x) { return !(x == mv.message || closure_.ancestor(mv.message, x)); });
  return out;
}

// First-improvement descent over the critical moves, in random order.
bool Search::descend(State& s) {
  bool any = false;
  for (bool improved = true; improved && !out_of_budget();) {
    improved = false;
    auto moves = moves_of(critical_chain());
    rng_.shuffle(moves);
    for (const Move& mv : moves) {
      if (out_of_budget()) break;
      if (mv.kind == MoveKind::switch_ocs && s.switch_of[mv.message] == mv.target) continue;
      State next = apply(s, mv);
      if (!evaluate(next) || !better(next, s)) continue;
      s = std::move(next);
      improved = any = true;
      break;
    }
    if (!improved) evaluate(s);  // leave the list scheduler on `s` for the caller
  }
  return any;
}

void Search::kick(State& s) {
  for (int k = 0; k < options_.kick_moves; ++k) {
    const auto moves = moves_of(critical_chain());
    if (moves.empty()) return;
    State next = apply(s, moves[rng_.below(moves.size())]);
    if (evaluate(next))
      s = std::move(next);
    else
      evaluate(s);
  }
}

LocalSearchResult Search::run(State start) {
  if (!evaluate(start)) throw std::invalid_argument("local search: the start order is invalid");
  State best = start, cur = start;
  LocalSearchResult r;
  const auto at_target = [&] { return best.time <= options_.target * (1 + 1e-12); };
  for (int fruitless = 0, restarts = 0; !out_of_budget() && !at_target();) {
    descend(cur);
    if (better(cur, best)) {
      best = cur;
      fruitless = restarts = 0;
    } else if (++fruitless >= options_.restart_after) {
      if (options_.stall_restarts > 0 && ++restarts >= options_.stall_restarts) break;
      cur = best;
      evaluate(cur);
      fruitless = 0;
    }
    if (out_of_budget() || at_target()) break;
    kick(cur);
  }
  r.switch_of = std::move(best.switch_of);
  r.order = std::move(best.order);
  r.iteration_time = best.time;
  r.evaluations = evaluations_;
  return r;
}

}  // namespace

LocalSearchResult critical_path_search(const CoschedInstance& inst, const Ancestry& closure,
                                       std::vector<int> switch_of, std::vector<int> order,
                                       const LocalSearchOptions& options) {
  Search search(inst, closure, options);
  return search.run({std::move(switch_of), std::move(order)});
}

}  // namespace flux::cosched
