#include "cosched/schedule_check.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

namespace flux {
namespace {

struct Checker {
  const CoschedInstance& inst;
  const CircuitSchedule& sched;
  double tol;
  std::vector<std::string> errors;
  std::vector<int> entry_of;  // message -> index in sched.messages

  void fail(std::string what) {
    if (errors.size() < 20) errors.push_back(std::move(what));
  }

  bool index_messages() {
    std::unordered_map<std::int64_t, int> msg_by_id;
    for (int m = 0; m < inst.message_count(); ++m) msg_by_id[inst.message_task(m).id] = m;
    entry_of.assign(inst.message_count(), -1);
    for (std::size_t e = 0; e < sched.messages.size(); ++e) {
      const auto& p = sched.messages[e];
      auto it = msg_by_id.find(p.task);
      if (it == msg_by_id.end())
        fail(fmt::format("entry {} names task {}, not a send", e, p.task));
      else if (entry_of[it->second] >= 0)
        fail(fmt::format("send {} placed twice", p.task));
      else if (!p.pieces.empty() || p.sw < 0 || p.sw >= inst.fabric.ocs)
        fail(fmt::format("send {} is not atomic on an existing OCS", p.task));
      else
        entry_of[it->second] = static_cast<int>(e);
    }
    for (int m = 0; m < inst.message_count(); ++m)
      if (entry_of[m] < 0) fail(fmt::format("send {} is not placed", inst.message_task(m).id));
    return errors.empty();
  }
  const MessagePlacement& at(int m) const { return sched.messages[entry_of[m]]; }
  double end(int m) const { return at(m).start + inst.duration[inst.messages[m]]; }

  void check_precedence() {
    std::vector<double> finish(inst.workload.tasks.size());
    double last = 0.0;
    for (int v : inst.topo) {
      double ready = 0.0;
      for (int p : inst.workload.tasks[v].after) ready = std::max(ready, finish[p]);
      const int m = inst.message_of[v];
      const double start = m >= 0 ? at(m).start : ready;
      if (start < ready - tol)
        fail(fmt::format("send {} starts at {} before its predecessors finish at {}",
                         inst.workload.tasks[v].id, start, ready));
      finish[v] = start + inst.duration[v];
      last = std::max(last, finish[v]);
    }
    if (std::abs(last - sched.iteration_time) > tol)
      fail(fmt::format("iteration time {} reported, {} recomputed", sched.iteration_time, last));
  }

  // Ports as (switch, kind, gpu) where kind 0 = duplex or TX, 1 = simplex RX.
  std::vector<std::pair<long long, int>> ports_of(int sw, int src, int dst) const {
    const long long g = inst.fabric.gpus, base = static_cast<long long>(sw) * 2 * g;
    const bool simplex = inst.fabric.circuit == CircuitKind::simplex;
    return {{base + src, dst}, {base + (simplex ? g : 0) + dst, src}};
  }

  void check_ports() {
    std::unordered_map<long long, std::vector<int>> users;
    for (int m = 0; m < inst.message_count(); ++m) {
      const Task& t = inst.message_task(m);
      for (auto [port, partner] : ports_of(at(m).sw, t.src, t.dst)) users[port].push_back(m);
    }
    const double tau = inst.fabric.reconfig_delay;
    for (const auto& [port, list] : users)
      for (std::size_t i = 0; i < list.size(); ++i) {
        const int a = list[i];
        if (!inst.fabric.initial_config_free && at(a).start < tau - tol)
          fail(fmt::format("send {} starts before its port's first set-up τ", at(a).task));
        for (std::size_t j = i + 1; j < list.size(); ++j) check_pair(a, list[j]);
      }
  }

  void check_pair(int a, int b) {
    const Task& ta = inst.message_task(a);
    const Task& tb = inst.message_task(b);
    const bool same = ta.src == tb.src && ta.dst == tb.dst;
    const bool reversed = ta.src == tb.dst && ta.dst == tb.src;
    if (reversed && inst.fabric.circuit == CircuitKind::duplex) return;
    const double gap = same ? 0.0 : inst.fabric.reconfig_delay;
    if (at(b).start >= end(a) + gap - tol || at(a).start >= end(b) + gap - tol) return;
    fail(fmt::format("sends {} and {} share a port on OCS {} without {} between them", ta.id, tb.id,
                     at(a).sw, same ? "serialisation" : "a reconfiguration gap"));
  }

  void check_circuits() {
    const bool duplex = inst.fabric.circuit == CircuitKind::duplex;
    for (int m = 0; m < inst.message_count(); ++m) {
      const Task& t = inst.message_task(m);
      const bool covered = std::any_of(sched.circuits.begin(), sched.circuits.end(), [&](auto& c) {
        const bool ends =
            (c.a == t.src && c.b == t.dst) || (duplex && c.a == t.dst && c.b == t.src);
        return c.sw == at(m).sw && ends && c.up <= at(m).start + tol && end(m) <= c.down + tol;
      });
      if (!covered) fail(fmt::format("send {} has no circuit up while it runs", t.id));
    }
    std::unordered_map<long long, std::vector<std::pair<const CircuitInterval*, int>>> by_port;
    for (const auto& c : sched.circuits)
      for (auto [port, partner] : ports_of(c.sw, c.a, c.b)) by_port[port].emplace_back(&c, partner);
    for (auto& [port, list] : by_port) {
      std::sort(list.begin(), list.end(),
                [](auto& x, auto& y) { return x.first->up < y.first->up; });
      const double tau = inst.fabric.reconfig_delay;
      if (!inst.fabric.initial_config_free && list.front().first->up < tau - tol)
        fail(fmt::format("a circuit on OCS {} is up before τ", list.front().first->sw));
      for (std::size_t k = 1; k < list.size(); ++k) {
        const double gap = list[k].second == list[k - 1].second ? 0.0 : tau;
        if (list[k].first->up < list[k - 1].first->down + gap - tol)
          fail(fmt::format("circuits on OCS {} share a port without a gap of {}", list[k].first->sw,
                           gap));
      }
    }
  }
};

}  // namespace

std::vector<std::string> check_circuit_schedule(const CoschedInstance& inst,
                                                const CircuitSchedule& schedule) {
  const double scale = std::max(schedule.iteration_time, inst.fabric.reconfig_delay);
  Checker c{inst, schedule, 1e-9 * scale + 1e-15, {}, {}};
  if (!c.index_messages()) return c.errors;
  c.check_precedence();
  c.check_ports();
  c.check_circuits();
  return c.errors;
}

}  // namespace flux
