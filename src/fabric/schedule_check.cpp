#include "fabric/schedule_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

#include "fabric/workload_fit.hpp"

namespace flux::fabric {

namespace {

// One port's use of one circuit.
struct PortUse {
  int gpu, sw;
  bool tx;  // simplex TX side (always true for duplex: one port per GPU and OCS)
  int partner;
  Time up, down;
  auto key() const { return std::tie(sw, gpu, tx, up, down, partner); }
};

std::string circuit_text(const PortUse& u) {
  return fmt::format("circuit to gpu {} [{}, {}] s", u.partner, to_seconds(u.up),
                     to_seconds(u.down));
}

std::vector<PortUse> port_uses(const std::vector<TimedCircuit>& circuits, const Fabric& f) {
  const bool duplex = f.circuit == CircuitKind::duplex;
  std::vector<PortUse> uses;
  for (const TimedCircuit& c : circuits) {
    uses.push_back({c.a, c.sw, true, c.b, c.up, c.down});
    uses.push_back({c.b, c.sw, duplex, c.a, c.up, c.down});
  }
  std::sort(uses.begin(), uses.end(),
            [](const PortUse& x, const PortUse& y) { return x.key() < y.key(); });
  return uses;
}

bool same_port(const PortUse& x, const PortUse& y) {
  return x.gpu == y.gpu && x.sw == y.sw && x.tx == y.tx;
}

void check_ports(const std::vector<PortUse>& uses, const Fabric& f, Time tol,
                 std::vector<std::string>& out) {
  const Time tau = to_time(f.reconfig_delay);
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const PortUse& u = uses[i];
    std::string port = describe_port(f, u.gpu, u.sw, u.tx);
    if (i == 0 || !same_port(uses[i - 1], u)) {
      if (!f.initial_config_free && u.up + tol < tau)
        out.push_back(fmt::format("{}: first {} is up before the reconfiguration delay τ = {} s",
                                  port, circuit_text(u), f.reconfig_delay));
      continue;
    }
    const PortUse& prev = uses[i - 1];
    if (u.up + tol < prev.down) {
      out.push_back(fmt::format("{} is on two circuits at once: {} and {}", port,
                                circuit_text(prev), circuit_text(u)));
    } else if (u.partner != prev.partner && u.up + tol < prev.down + tau) {
      out.push_back(fmt::format("{}: {} starts less than τ = {} s after {} ends", port,
                                circuit_text(u), f.reconfig_delay, circuit_text(prev)));
    }
  }
}

// The circuit of port (gpu, sw, tx) that covers [start, end], or nullptr.
const PortUse* covering(const std::vector<PortUse>& uses, int gpu, int sw, bool tx, Time start,
                        Time end, Time tol) {
  PortUse probe{gpu, sw, tx, INT32_MAX, start + tol, kNever};
  auto it = std::upper_bound(uses.begin(), uses.end(), probe,
                             [](const PortUse& x, const PortUse& y) { return x.key() < y.key(); });
  if (it == uses.begin()) return nullptr;
  --it;
  if (it->gpu != gpu || it->sw != sw || it->tx != tx || it->down + tol < end) return nullptr;
  return &*it;
}

struct HopRef {
  int sw, from;
  Time start, end;
  int task;
};

void check_hop(const Hop& h, int task, const std::vector<PortUse>& uses,
               const workload::Workload& w, const Fabric& f, const LinkTiming& lt, Time tol,
               std::vector<std::string>& out) {
  auto who = [&] { return describe_task(w, task); };  // only for a violation: hops are millions
  if (h.sw < 0 || h.sw >= f.ocs || h.from == h.to || h.from < 0 || h.to < 0 || h.from >= f.gpus ||
      h.to >= f.gpus || !(h.bytes >= 0)) {
    out.push_back(
        fmt::format("{}: hop {} -> {} on OCS {} is malformed", who(), h.from, h.to, h.sw));
    return;
  }
  if (h.end - h.start + tol < lt.duration(h.bytes))
    out.push_back(fmt::format("{}: {} bytes on {} in [{}, {}] s is faster than α + bytes/B", who(),
                              h.bytes, describe_port(f, h.from, h.sw, true), to_seconds(h.start),
                              to_seconds(h.end)));
  const PortUse* c = covering(uses, h.from, h.sw, true, h.start, h.end, tol);
  if (c == nullptr || c->partner != h.to)
    out.push_back(fmt::format("{}: no circuit from gpu {} to gpu {} on {} covers [{}, {}] s", who(),
                              h.from, h.to, describe_port(f, h.from, h.sw, true),
                              to_seconds(h.start), to_seconds(h.end)));
}

void check_directions(std::vector<HopRef>& refs, const workload::Workload& w, const Fabric& f,
                      Time tol, std::vector<std::string>& out) {
  std::sort(refs.begin(), refs.end(), [](const HopRef& x, const HopRef& y) {
    return std::tie(x.sw, x.from, x.start, x.end, x.task) <
           std::tie(y.sw, y.from, y.start, y.end, y.task);
  });
  for (std::size_t i = 1; i < refs.size(); ++i) {
    const HopRef& a = refs[i - 1];
    const HopRef& b = refs[i];
    if (a.sw == b.sw && a.from == b.from && b.start + tol < a.end)
      out.push_back(fmt::format("{} and {} send at once on {} ([{}, {}] s and [{}, {}] s)",
                                describe_task(w, a.task), describe_task(w, b.task),
                                describe_port(f, a.from, a.sw, true), to_seconds(a.start),
                                to_seconds(a.end), to_seconds(b.start), to_seconds(b.end)));
  }
}

bool bytes_equal(double a, double b) {
  return std::abs(a - b) <= 1e-6 * std::max(1.0, b);
}

// Bytes leave src and arrive at dst in full; an intermediate forwards only what it already got.
void check_flow(std::span<const Hop> hops, int task, const workload::Workload& w,
                std::vector<std::string>& out) {
  const workload::Task& t = w.tasks[static_cast<std::size_t>(task)];
  if (hops.empty()) {  // even a zero-byte send needs its circuit
    out.push_back(fmt::format("{}: no hop carries it", describe_task(w, task)));
    return;
  }
  double sent = 0, delivered = 0;
  for (const Hop& h : hops) {
    if (h.from == t.src) sent += h.bytes;
    if (h.to == t.dst) delivered += h.bytes;
    if (h.from == t.src || h.from == t.dst) continue;
    double received = 0, forwarded = 0;
    for (const Hop& g : hops) {
      if (g.to == h.from && g.end <= h.start) received += g.bytes;
      if (g.from == h.from && g.start <= h.start) forwarded += g.bytes;
    }
    if (forwarded > received + 1e-6 * std::max(1.0, t.bytes))
      out.push_back(fmt::format("{}: gpu {} forwards bytes at {} s before it received them",
                                describe_task(w, task), h.from, to_seconds(h.start)));
  }
  if (!bytes_equal(sent, t.bytes) || !bytes_equal(delivered, t.bytes))
    out.push_back(fmt::format("{}: {} bytes leave gpu {} and {} arrive at gpu {}, expected {}",
                              describe_task(w, task), sent, t.src, delivered, t.dst, t.bytes));
}

}  // namespace

Time time_tolerance(Time iteration_time, const Fabric& f) {
  double scale = std::max(to_seconds(iteration_time), f.reconfig_delay);
  return std::max<Time>(2, to_time(1e-9 * scale));
}

std::int64_t count_reconfigurations(const std::vector<TimedCircuit>& circuits, const Fabric& f) {
  const std::vector<PortUse> uses = port_uses(circuits, f);
  std::int64_t count = 0;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (i == 0 || !same_port(uses[i - 1], uses[i])) {
      if (!f.initial_config_free) ++count;
    } else if (uses[i].partner != uses[i - 1].partner) {
      ++count;
    }
  }
  return count;
}

std::string describe_port(const Fabric& f, int gpu, int sw, bool tx) {
  const char* side = f.circuit == CircuitKind::duplex ? "" : (tx ? "TX " : "RX ");
  return fmt::format("{}port (gpu {}, ocs {})", side, gpu, sw);
}

std::vector<std::string> check_schedule(const TimedSchedule& s, const workload::Workload& w,
                                        const Fabric& f, Time tol) {
  std::vector<std::string> out;
  const std::vector<PortUse> uses = port_uses(s.circuits, f);
  check_ports(uses, f, tol, out);
  const LinkTiming lt(f);
  std::vector<HopRef> refs;
  // Every hop has its ref: sized at once, the array never holds a copy of itself while it grows
  // (tens of millions of hops on the largest runs).
  refs.reserve(s.hops.hop_count());
  for (std::size_t t = 0; t < w.tasks.size() && t < s.hops.size(); ++t) {
    if (w.tasks[t].kind != workload::TaskKind::send) continue;
    for (const Hop& h : s.hops[t]) {
      check_hop(h, static_cast<int>(t), uses, w, f, lt, tol, out);
      refs.push_back({h.sw, h.from, h.start, h.end, static_cast<int>(t)});
    }
    check_flow(s.hops[t], static_cast<int>(t), w, out);
  }
  check_directions(refs, w, f, tol, out);
  return out;
}

}  // namespace flux::fabric
