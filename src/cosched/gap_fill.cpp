#include "cosched/gap_fill.hpp"

#include <algorithm>
#include <numeric>

#include "cosched/lower_bound.hpp"

namespace flux {
namespace {

// Planned occupation of every OCS port: the planned messages per port, sorted by start.
class PortPlan {
 public:
  explicit PortPlan(const Fabric& f)
      : f_(f),
        per_switch_(f.circuit == CircuitKind::duplex ? f.gpus : 2 * f.gpus),
        ports_(static_cast<std::size_t>(per_switch_) * f.ocs) {}

  // Earliest x ≥ from at which src→dst, lasting p, fits on OCS `sw` at both of its ports.
  [[nodiscard]] double fit(int sw, int src, int dst, double from, double p) const {
    for (double x = from;;) {
      const double y =
          std::max(port_fit(use(sw, src, dst, 0), x, p), port_fit(use(sw, src, dst, 1), x, p));
      if (y == x) return x;
      x = y;
    }
  }

  void add(int sw, int src, int dst, double start, double p) {
    for (int end = 0; end < 2; ++end) {
      const Use u = use(sw, src, dst, end);
      Port& port = ports_[u.port];
      const Busy b{start, start + p, u.partner, u.dir};
      port.busy.insert(std::upper_bound(port.busy.begin(), port.busy.end(), b, by_start), b);
      port.longest = std::max(port.longest, p);
    }
  }

 private:
  struct Busy {
    double from, to;
    int partner, dir;
  };
  struct Port {
    std::vector<Busy> busy;
    double longest = 0.0;
  };
  struct Use {
    int port, partner, dir;
  };
  static bool by_start(const Busy& a, const Busy& b) { return a.from < b.from; }

  // end 0 = the sender's port, end 1 = the receiver's (as in PortBook).
  [[nodiscard]] Use use(int sw, int src, int dst, int end) const {
    const int base = sw * per_switch_;
    if (f_.circuit == CircuitKind::duplex)
      return end == 0 ? Use{base + src, dst, 0} : Use{base + dst, src, 1};
    return end == 0 ? Use{base + src, dst, 0} : Use{base + f_.gpus + dst, src, 0};
  }

  // Moves x right past every planned use of the port that [x, x + p) collides with: a different
  // circuit must stay τ away, the same circuit only blocks its own direction. Intervals starting
  // before x − longest − τ end more than τ before x and are skipped.
  [[nodiscard]] double port_fit(const Use& u, double x, double p) const {
    const Port& port = ports_[u.port];
    const double tau = f_.reconfig_delay;
    const Busy probe{x - port.longest - tau, 0.0, 0, 0};
    for (auto it = std::lower_bound(port.busy.begin(), port.busy.end(), probe, by_start);
         it != port.busy.end() && it->from < x + p + tau; ++it) {
      const bool same = it->partner == u.partner;
      if (same && it->dir != u.dir) continue;  // the other direction of a duplex circuit
      const double pad = same ? 0.0 : tau;
      if (it->from < x + p + pad && x < it->to + pad) x = it->to + pad;
    }
    return x;
  }

  Fabric f_;
  int per_switch_;
  std::vector<Port> ports_;
};

// Plans message m (task v) at the earliest fit ≥ from over all OCSes; returns its start.
double plan_message(const CoschedInstance& inst, PortPlan& plan, std::vector<int>& switch_of, int m,
                    double from) {
  const Task& t = inst.message_task(m);
  const double p = inst.duration[inst.messages[m]];
  double best = 0.0;
  for (int s = 0; s < inst.fabric.ocs; ++s) {
    const double x = plan.fit(s, t.src, t.dst, from, p);
    if (s == 0 || x < best) best = x, switch_of[m] = s;
  }
  plan.add(switch_of[m], t.src, t.dst, best, p);
  return best;
}

}  // namespace

std::vector<Placement> slack_gap_fill(const CoschedInstance& inst, const GapFillOptions& options) {
  const auto head = flux_heads(inst);
  double cp = 0.0;
  for (std::size_t v = 0; v < head.size(); ++v)
    cp = std::max(cp, head[v] + inst.duration[v] + inst.tail[v]);
  const int nm = inst.message_count();
  std::vector<int> critical;
  for (int m = 0; m < nm; ++m) {
    const int v = inst.messages[m];
    if (cp - (head[v] + inst.duration[v] + inst.tail[v]) <= options.critical_slack * cp)
      critical.push_back(m);
  }
  std::stable_sort(critical.begin(), critical.end(),
                   [&](int a, int b) { return head[inst.messages[a]] < head[inst.messages[b]]; });
  PortPlan plan(inst.fabric);
  std::vector<int> switch_of(nm, 0);
  std::vector<double> planned(nm, -1.0);
  for (int m : critical)
    planned[m] = plan_message(inst, plan, switch_of, m, head[inst.messages[m]]);
  // Everything else after its planned predecessors; starts stay consistent with the DAG, so the
  // start order below is a linear extension.
  const auto& tasks = inst.workload.tasks;
  std::vector<double> start(tasks.size(), 0.0);
  for (int v : inst.topo) {
    double ready = 0.0;
    for (int p : tasks[v].after) ready = std::max(ready, start[p] + inst.duration[p]);
    const int m = inst.message_of[v];
    if (m < 0)
      start[v] = ready;
    else if (planned[m] >= 0.0)
      start[v] = std::max(ready, planned[m]);
    else
      start[v] = plan_message(inst, plan, switch_of, m, std::max(ready, head[v]));
  }
  std::vector<int> topo_pos(tasks.size()), order(nm);
  for (std::size_t k = 0; k < inst.topo.size(); ++k) topo_pos[inst.topo[k]] = static_cast<int>(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const int va = inst.messages[a], vb = inst.messages[b];
    return start[va] != start[vb] ? start[va] < start[vb] : topo_pos[va] < topo_pos[vb];
  });
  return schedule_in_order(inst, switch_of, order).value();
}

}  // namespace flux
