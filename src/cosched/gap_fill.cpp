#include "cosched/gap_fill.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/gallop.hpp"
#include "cosched/circuit_coloring.hpp"
#include "cosched/lower_bound.hpp"
#include "cosched/port_book.hpp"

namespace flux::cosched {
namespace {

// Planned occupation of every OCS port: the planned messages per port, sorted by start. A record
// holds its message rather than its end (16 bytes, not 24): on the 18.5 M-task GPT-3 iteration the
// plan's 24 M records were most of flux's peak.
class PortPlan {
 public:
  explicit PortPlan(const CoschedInstance& inst)
      : inst_(inst),
        f_(inst.fabric),
        ports_(static_cast<std::size_t>(ports_per_switch(f_)) * f_.ocs) {}

  // Earliest x ≥ from at which message m fits on OCS `sw` at both of its ports.
  [[nodiscard]] double fit(int sw, int m, double from) const {
    const workload::Task& t = inst_.message_task(m);
    const double p = duration(m);
    const PortUse sender = port_use(f_, sw, t.src, t.dst, 0);
    const PortUse receiver = port_use(f_, sw, t.src, t.dst, 1);
    for (double x = from;;) {
      const double y = std::max(port_fit(sender, x, p), port_fit(receiver, x, p));
      if (y == x) return x;
      x = y;
    }
  }

  void add(int sw, int m, double start) {
    const workload::Task& t = inst_.message_task(m);
    for (int end = 0; end < 2; ++end) {
      const PortUse u = port_use(f_, sw, t.src, t.dst, end);
      Port& port = ports_[u.port];
      const auto at = partition_point_near(port.busy, port.hint,
                                           [start](const Busy& b) { return b.from <= start; });
      port.busy.insert(port.busy.begin() + static_cast<std::ptrdiff_t>(at),
                       Busy{start, m, u.partner, u.dir != 0});
      port.longest = std::max(port.longest, duration(m));
    }
  }

 private:
  struct Busy {
    double from;
    int message;
    int partner : 31;
    bool dir : 1;
  };
  static_assert(sizeof(Busy) == 16);
  struct Port {
    std::vector<Busy> busy;
    double longest = 0.0;
    // Where the port's last search ended: a plan moves forward in time, so the next search of
    // the port usually ends near it.
    mutable std::size_t hint = 0;
  };
  [[nodiscard]] double duration(int m) const { return inst_.duration[inst_.messages[m]]; }

  // Moves x right past every planned use of the port that [x, x + p) collides with: a different
  // circuit must stay τ away, the same circuit only blocks its own direction. Intervals starting
  // before x − longest − τ end more than τ before x and are skipped.
  [[nodiscard]] double port_fit(const PortUse& u, double x, double p) const {
    const Port& port = ports_[u.port];
    const double tau = f_.reconfig_delay;
    const double skip_before = x - port.longest - tau;
    port.hint = partition_point_near(port.busy, port.hint,
                                     [skip_before](const Busy& b) { return b.from < skip_before; });
    for (auto it = port.busy.begin() + static_cast<std::ptrdiff_t>(port.hint);
         it != port.busy.end() && it->from < x + p + tau; ++it) {
      const bool same = it->partner == u.partner;
      if (same && it->dir != (u.dir != 0)) continue;  // the other direction of a duplex circuit
      const double pad = same ? 0.0 : tau;
      const double to = it->from + duration(it->message);
      if (it->from < x + p + pad && x < to + pad) x = to + pad;
    }
    return x;
  }

  const CoschedInstance& inst_;
  const fabric::Fabric& f_;
  std::vector<Port> ports_;
};

// The plan being built: the ports' planned uses and each message's OCS. A message goes where it
// fits earliest, or with a home slack on its circuit's home OCS (circuit_coloring.hpp) unless
// another OCS fits it more than home slack · τ earlier.
class Planner {
 public:
  Planner(const CoschedInstance& inst, const GapFillOptions& options)
      : inst_(inst), ports_(inst), switch_of_(inst.message_count(), 0) {
    if (options.home_slack < 0.0) return;
    home_ = circuit_coloring(inst);
    home_slack_ = options.home_slack * inst.fabric.reconfig_delay;
  }

  // Plans message m from `from` on; returns its start.
  double place(int m, double from) {
    double best = 0.0, at_home = 0.0;
    const int home = home_.empty() ? -1 : home_[m];
    for (int s = 0; s < inst_.fabric.ocs; ++s) {
      const double x = ports_.fit(s, m, from);
      if (s == 0 || x < best) best = x, switch_of_[m] = s;
      if (s == home) at_home = x;
    }
    if (home >= 0 && at_home <= best + home_slack_) best = at_home, switch_of_[m] = home;
    ports_.add(switch_of_[m], m, best);
    return best;
  }

  [[nodiscard]] std::vector<int> take_switches() { return std::move(switch_of_); }

 private:
  const CoschedInstance& inst_;
  PortPlan ports_;
  std::vector<int> switch_of_, home_;
  double home_slack_ = 0.0;
};

// Step 2: plans the critical messages (`critical`, in head order) and returns each message's
// planned start (−1 where not critical); nullopt when the deadline passes first.
std::optional<std::vector<double>> plan_critical(const CoschedInstance& inst,
                                                 const GapFillOptions& options,
                                                 const std::vector<double>& head,
                                                 const std::vector<int>& critical, Planner& plan,
                                                 DeadlinePoll& deadline) {
  std::vector<double> planned(inst.message_count(), -1.0);
  if (options.critical_plan == CriticalPlan::at_heads) {
    for (int m : critical) {
      if (deadline.passed()) return std::nullopt;
      planned[m] = plan.place(m, head[inst.messages[m]]);
    }
    return planned;
  }
  std::vector<char> is_critical(inst.message_count(), 0);
  for (int m : critical) is_critical[m] = 1;
  const auto& tasks = inst.workload.tasks;
  std::vector<double> start(tasks.size(), 0.0);
  for (int v : inst.topo) {
    if (deadline.passed()) return std::nullopt;
    double ready = head[v];
    for (int p : tasks[v].after) ready = std::max(ready, start[p] + inst.duration[p]);
    const int m = inst.message_of[v];
    start[v] = m >= 0 && is_critical[m] ? (planned[m] = plan.place(m, ready)) : ready;
  }
  return planned;
}

// Steps 1–3: each task's planned start and each message's OCS (`switch_of`); nullopt when the
// deadline passes first.
std::optional<std::vector<double>> planned_task_starts(const CoschedInstance& inst,
                                                       const GapFillOptions& options,
                                                       std::vector<int>& switch_of) {
  const auto head = flux_heads(inst);
  const double cp = critical_path_length(inst, head);
  const int nm = inst.message_count();
  std::vector<int> critical;
  for (int m = 0; m < nm; ++m) {
    const int v = inst.messages[m];
    if (cp - (head[v] + inst.duration[v] + inst.tail[v]) <= options.critical_slack * cp)
      critical.push_back(m);
  }
  std::stable_sort(critical.begin(), critical.end(),
                   [&](int a, int b) { return head[inst.messages[a]] < head[inst.messages[b]]; });
  Planner plan(inst, options);
  DeadlinePoll deadline(options.deadline);
  const auto critical_plan = plan_critical(inst, options, head, critical, plan, deadline);
  if (!critical_plan) return std::nullopt;
  const std::vector<double>& planned = *critical_plan;
  // Everything else after its planned predecessors; starts stay consistent with the DAG, so the
  // start order of the plan is a linear extension.
  const auto& tasks = inst.workload.tasks;
  std::vector<double> start(tasks.size(), 0.0);
  for (int v : inst.topo) {
    if (deadline.passed()) return std::nullopt;
    double ready = 0.0;
    for (int p : tasks[v].after) ready = std::max(ready, start[p] + inst.duration[p]);
    const int m = inst.message_of[v];
    if (m < 0)
      start[v] = ready;
    else if (planned[m] >= 0.0)
      start[v] = std::max(ready, planned[m]);
    else
      start[v] = plan.place(m, std::max(ready, head[v]));
  }
  switch_of = plan.take_switches();
  return start;
}

}  // namespace

std::vector<Placement> slack_gap_fill(const CoschedInstance& inst, const GapFillOptions& options) {
  // Step 4, once the plan's working state (the port plan: 16 B per message end) is freed: held
  // beside the list scheduler's arrays, it was flux's peak on the 18.5 M-task GPT-3 iteration
  // (4.83 GiB; 3.80 GiB now, with the port plan's smaller records).
  std::vector<int> switch_of, order;
  {
    const auto start = planned_task_starts(inst, options, switch_of);
    if (!start) return {};
    order = start_order(inst, *start);
  }
  return schedule_in_order(inst, switch_of, order).value();
}

}  // namespace flux::cosched
