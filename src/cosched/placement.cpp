#include "cosched/placement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "core/prefetch.hpp"
#include "cosched/port_book.hpp"
#include "fabric/schedule_check.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::cosched {
namespace {

// One run of consecutive messages on a port that share a circuit.
struct PortRun {
  int port = 0, partner = 0;
  double up = 0.0, down = 0.0;
};

// Per port of OCS `sw` (indexed from the OCS's first port): message indices touching it, sorted
// by start.
std::vector<std::vector<int>> port_users(const CoschedInstance& inst,
                                         const std::vector<Placement>& pl, int sw) {
  const int pps = ports_per_switch(inst.fabric);
  std::vector<std::vector<int>> users(static_cast<std::size_t>(pps));
  for (int m = 0; m < inst.message_count(); ++m) {
    if (pl[m].sw != sw) continue;
    const workload::Task& t = inst.message_task(m);
    for (int end = 0; end < 2; ++end)
      users[port_use(inst.fabric, sw, t.src, t.dst, end).port - sw * pps].push_back(m);
  }
  for (auto& u : users)
    std::stable_sort(u.begin(), u.end(), [&](int a, int b) { return pl[a].start < pl[b].start; });
  return users;
}

int partner_at(const workload::Task& t, int gpu_of_port) {
  return gpu_of_port == t.src ? t.dst : t.src;
}

// The runs of every port of OCS `sw`, grouped by port in increasing order.
std::vector<PortRun> port_runs(const CoschedInstance& inst, const std::vector<Placement>& pl,
                               int sw, double end_time) {
  const int pps = ports_per_switch(inst.fabric);
  const double tau = inst.fabric.reconfig_delay;
  const auto users = port_users(inst, pl, sw);
  std::vector<PortRun> runs;
  for (int local = 0; local < pps; ++local) {
    const int gpu = local % inst.fabric.gpus;
    std::size_t first_run = runs.size();
    for (int m : users[static_cast<std::size_t>(local)]) {
      const int partner = partner_at(inst.message_task(m), gpu);
      if (runs.size() > first_run && runs.back().partner == partner) continue;
      if (runs.size() > first_run) runs.back().down = pl[m].start - tau;
      const bool free_first = runs.size() == first_run && inst.fabric.initial_config_free;
      runs.push_back({sw * pps + local, partner, free_first ? 0.0 : pl[m].start, end_time});
    }
  }
  return runs;
}

// The circuits of OCS `sw` the placements imply, sorted by (up, a, b): a circuit a–b is up on the
// intersection of a's run pointing at b and b's run pointing at a. Runs come out of `port_runs`
// grouped by port in increasing order and, within a port, in time order (disjoint, so `up` and
// `down` both increase): a run's peers that overlap it are found by binary search. Scanning every
// run of the peer port instead costs runs² per port: tens of seconds at 1,024 GPUs.
std::vector<fabric::CircuitInterval> switch_circuits(const CoschedInstance& inst,
                                                     const std::vector<Placement>& pl, int sw,
                                                     double end_time) {
  const int pps = ports_per_switch(inst.fabric), gpus = inst.fabric.gpus;
  const bool simplex = inst.fabric.circuit == fabric::CircuitKind::simplex;
  const auto runs = port_runs(inst, pl, sw, end_time);
  const auto by_port = [](const PortRun& x, const PortRun& y) { return x.port < y.port; };
  std::vector<fabric::CircuitInterval> out;
  for (const PortRun& ra : runs) {
    const int local = ra.port % pps;
    if (local >= gpus && simplex) continue;  // RX runs are matched from the TX side
    const int a = local, b = ra.partner;
    if (!simplex && a > b) continue;
    const PortRun peer{port_use(inst.fabric, sw, a, b, 1).port};  // b's end of a→b
    const auto [first, last] = std::equal_range(runs.begin(), runs.end(), peer, by_port);
    // Runs ending before ra begins cannot overlap it; the scan stops at the first beginning after
    // ra ends.
    const auto overlap =
        std::partition_point(first, last, [&](const PortRun& rb) { return rb.down < ra.up; });
    for (auto rb = overlap; rb != last && rb->up <= ra.down; ++rb) {
      if (rb->partner != a) continue;
      const double up = std::max(ra.up, rb->up), down = std::min(ra.down, rb->down);
      if (up <= down) out.push_back({sw, a, b, up, down});
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return std::tie(x.up, x.a, x.b) < std::tie(y.up, y.a, y.b);
  });
  return out;
}

// Calls `each` with the circuits the placements imply, one OCS at a time in increasing order:
// together sorted by (switch, up, a, b). A circuit joins two ports of one OCS, so each OCS's runs
// (24 B per port change) and circuits are built and dropped in turn: on the 1,024-GPU GPT-3
// iteration those of every OCS at once held about 0.7 GB beside the circuits.
template <class Each>
void for_each_switch_circuits(const CoschedInstance& inst, const std::vector<Placement>& pl,
                              double end_time, Each&& each) {
  for (int sw = 0; sw < inst.fabric.ocs; ++sw) each(switch_circuits(inst, pl, sw, end_time));
}

std::vector<fabric::CircuitInterval> circuit_intervals(const CoschedInstance& inst,
                                                       const std::vector<Placement>& pl,
                                                       double end_time) {
  std::vector<fabric::CircuitInterval> out;
  for_each_switch_circuits(inst, pl, end_time,
                           [&](const auto& c) { out.insert(out.end(), c.begin(), c.end()); });
  return out;
}

// The same circuits in the simulator's form, built OCS by OCS without the intervals of all.
std::vector<fabric::TimedCircuit> timed_circuits(const CoschedInstance& inst,
                                                 const std::vector<Placement>& pl,
                                                 double end_time) {
  std::vector<fabric::TimedCircuit> out;
  for_each_switch_circuits(inst, pl, end_time, [&](const auto& c) {
    const auto timed = fabric::timed_circuits(c);
    out.insert(out.end(), timed.begin(), timed.end());
  });
  return out;
}

}  // namespace

ListScheduler::ListScheduler(const CoschedInstance& inst) : inst_(inst) {}

void ListScheduler::finish(int v, double end) {
  end_ = std::max(end_, end);
  for (int s : inst_.succ[v]) {
    ready_[s] = std::max(ready_[s], end);
    if (--missing_[s] == 0 && inst_.message_of[s] < 0) compute_queue_.push_back(s);
  }
}

// The order is by start time, so its messages' records lie anywhere in the instance's arrays.
// Asking for them ahead lets their cache misses overlap. Each step needs what the one before
// fetched: the message's task number (16 places ahead), its records and where its successors
// are listed (8 ahead), the list (6 ahead), and the successors' records (3 ahead).
void ListScheduler::prefetch_message(const std::vector<int>& order, std::size_t k) const {
  constexpr std::size_t kNumber = 16, kTask = 8, kList = 6, kSuccessors = 3;
  const auto task_at = [&](std::size_t ahead) { return inst_.messages[order[k + ahead]]; };
  const std::size_t left = order.size() - k;
  if (kNumber < left) prefetch(&inst_.messages[order[k + kNumber]]);
  if (kTask < left) {
    const int v = task_at(kTask);
    prefetch(&inst_.workload.tasks[v].src);  // its ports
    prefetch(&inst_.succ.offset[v]);
    prefetch(&ready_[v]);
    prefetch(&missing_[v]);
    prefetch(&inst_.duration[v]);
  }
  if (kList < left) prefetch(inst_.succ[task_at(kList)].data());
  if (kSuccessors < left)
    for (int s : inst_.succ[task_at(kSuccessors)]) {
      prefetch(&ready_[s]);
      prefetch(&missing_[s]);
      prefetch(&inst_.message_of[s]);
    }
}

bool ListScheduler::run(const std::vector<int>& switch_of, const std::vector<int>& order) {
  const auto& tasks = inst_.workload.tasks;
  const int n = static_cast<int>(tasks.size());
  missing_.resize(n);
  ready_.assign(n, 0.0);
  start_.assign(n, 0.0);
  placed_.assign(inst_.message_count(), 0);
  blocker_.assign(inst_.message_count(), -1);
  compute_queue_.clear();
  end_ = 0.0;
  for (int v = 0; v < n; ++v) {
    missing_[v] = static_cast<int>(tasks[v].after.size());
    if (missing_[v] == 0 && inst_.message_of[v] < 0) compute_queue_.push_back(v);
  }
  PortBook book(inst_.fabric);
  for (std::size_t k = 0; k <= order.size(); ++k) {
    while (!compute_queue_.empty()) {
      const int v = compute_queue_.back();
      compute_queue_.pop_back();
      start_[v] = ready_[v];
      finish(v, ready_[v] + inst_.duration[v]);
    }
    if (k == order.size()) break;
    prefetch_message(order, k);
    const int m = order[k], v = inst_.messages[m];
    if (placed_[m] || missing_[v] != 0) return false;  // listed twice, or before a predecessor
    const workload::Task& t = tasks[v];
    const int sw = switch_of[m];
    const PortBook::Start at = book.start(sw, t.src, t.dst, ready_[v]);
    blocker_[m] = at.blocker;
    start_[v] = at.time;
    book.place(sw, t.src, t.dst, start_[v] + inst_.duration[v], m);
    placed_[m] = 1;
    finish(v, start_[v] + inst_.duration[v]);
  }
  return true;
}

std::vector<Placement> ListScheduler::placements(const std::vector<int>& switch_of) const {
  std::vector<Placement> out(inst_.message_count());
  for (int m = 0; m < inst_.message_count(); ++m)
    if (placed_[m]) out[m] = {switch_of[m], start_[inst_.messages[m]]};
  return out;
}

std::optional<std::vector<Placement>> schedule_in_order(const CoschedInstance& inst,
                                                        const std::vector<int>& switch_of,
                                                        const std::vector<int>& order) {
  ListScheduler list(inst);
  if (!list.run(switch_of, order)) return std::nullopt;
  return list.placements(switch_of);
}

namespace {

// Messages sorted by start_of(task, message), ties broken by topological position. (Sorting
// contiguous (start, position, message) records instead needs 16 bytes per message more at
// flux's peak, and was no faster on the GPT-3 175B iteration.)
template <typename StartOf>
std::vector<int> order_by_start(const CoschedInstance& inst, StartOf&& start_of) {
  std::vector<int> topo_pos(inst.message_count());
  int k = 0;
  for (int v : inst.topo)
    if (inst.message_of[v] >= 0) topo_pos[inst.message_of[v]] = k++;
  std::vector<int> order(inst.message_count());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double sa = start_of(a), sb = start_of(b);
    if (sa != sb) return sa < sb;
    return topo_pos[a] < topo_pos[b];
  });
  return order;
}

}  // namespace

std::vector<int> start_order(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  return order_by_start(inst, [&](int m) { return pl[m].start; });
}

std::vector<int> start_order(const CoschedInstance& inst, const std::vector<double>& task_start) {
  return order_by_start(inst, [&](int m) { return task_start[inst.messages[m]]; });
}

double iteration_time(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  std::vector<double> ms(pl.size());
  for (std::size_t m = 0; m < pl.size(); ++m) ms[m] = pl[m].start;
  const auto start = task_starts(inst, ms);
  double end = 0.0;
  for (std::size_t v = 0; v < start.size(); ++v) end = std::max(end, start[v] + inst.duration[v]);
  return end;
}

fabric::CircuitSchedule make_circuit_schedule(const CoschedInstance& inst,
                                              const std::vector<Placement>& pl,
                                              const std::string& scheduler) {
  fabric::CircuitSchedule out;
  out.scheduler = scheduler;
  out.iteration_time = iteration_time(inst, pl);
  for (int m = 0; m < inst.message_count(); ++m)
    out.messages.push_back({inst.message_task(m).id, pl[m].sw, pl[m].start, {}});
  out.circuits = circuit_intervals(inst, pl, out.iteration_time);
  return out;
}

fabric::TimedSchedule timed_schedule_without_hops(const CoschedInstance& inst,
                                                  const std::vector<Placement>& pl,
                                                  const std::string& scheduler) {
  for (int m = 0; m < inst.message_count(); ++m)
    if (pl[m].sw < 0)  // the circuits would index ports of switch -1
      throw std::logic_error(
          fmt::format("timed_schedule_without_hops: message {} (task {}) is unplaced", m,
                      inst.message_task(m).id));
  fabric::TimedSchedule out;
  out.scheduler = scheduler;
  out.posting = fabric::Posting::timetable;
  const double end = iteration_time(inst, pl);
  out.iteration_time = fabric::to_time(end);
  out.circuits = timed_circuits(inst, pl, end);
  return out;
}

void add_hops(fabric::TimedSchedule& schedule, const workload::Workload& w, const fabric::Fabric& f,
              const std::vector<Placement>& pl) {
  const fabric::LinkTiming lt(f);
  schedule.hops = fabric::HopLists(w.tasks.size());
  std::size_t m = 0;
  for (std::size_t v = 0; v < w.tasks.size(); ++v) {
    const workload::Task& t = w.tasks[v];
    if (t.kind != workload::TaskKind::send) continue;
    if (m >= pl.size() || pl[m].sw < 0)
      throw std::logic_error(
          fmt::format("add_hops: send task {} (message {}) is unplaced", t.id, m));
    schedule.hops.add(v, fabric::atomic_hop(pl[m].sw, pl[m].start, t, lt));
    ++m;
  }
  schedule.hops.seal();
}

fabric::TimedSchedule make_timed_schedule(const CoschedInstance& inst,
                                          const std::vector<Placement>& pl,
                                          const std::string& scheduler) {
  fabric::TimedSchedule out = timed_schedule_without_hops(inst, pl, scheduler);
  add_hops(out, inst.workload, inst.fabric, pl);
  return out;
}

std::int64_t count_reconfigurations(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  return count_reconfigurations(timed_circuits(inst, pl, iteration_time(inst, pl)), inst.fabric);
}

}  // namespace flux::cosched
