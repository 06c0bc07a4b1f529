#include "cosched/port_book.hpp"

#include <algorithm>

namespace flux::cosched {

PortBook::PortBook(const fabric::Fabric& fabric)
    : fabric_(fabric), ports_(static_cast<std::size_t>(ports_per_switch(fabric)) * fabric.ocs) {}

PortBook::Cause PortBook::port_cause(const PortUse& u) const {
  const Port& p = ports_[u.port];
  if (p.partner == u.partner) return {p.avail[u.dir], p.avail_by[u.dir]};
  if (p.partner < 0 && fabric_.initial_config_free) return {0.0, -1};
  return {p.end_all + fabric_.reconfig_delay, p.end_all_by};
}

PortBook::Start PortBook::start(int sw, int src, int dst, double ready) const {
  const Cause a = port_cause(use(sw, src, dst, 0)), b = port_cause(use(sw, src, dst, 1));
  const Cause& c = a.time >= b.time ? a : b;
  return c.time > ready ? Start{c.time, c.message} : Start{ready, -1};
}

bool PortBook::reuses(int sw, int src, int dst) const {
  for (int end = 0; end < 2; ++end) {
    const PortUse u = use(sw, src, dst, end);
    if (ports_[u.port].partner != u.partner) return false;
  }
  return true;
}

std::vector<std::pair<int, int>> PortBook::displaced(int sw, int src, int dst) const {
  std::vector<std::pair<int, int>> out;
  for (int end = 0; end < 2; ++end) {
    const PortUse u = use(sw, src, dst, end);
    const int old = ports_[u.port].partner;
    if (old < 0 || old == u.partner) continue;
    out.push_back(end == 0 ? std::pair{src, old} : std::pair{old, dst});
  }
  return out;
}

void PortBook::place(int sw, int src, int dst, double end, int message) {
  for (int e = 0; e < 2; ++e) {
    const PortUse u = use(sw, src, dst, e);
    Port& p = ports_[u.port];
    if (p.partner != u.partner) {
      // A new circuit: either direction may follow from when the port is ready again.
      const Cause from = port_cause(u);
      p.avail[0] = p.avail[1] = from.time;
      p.avail_by[0] = p.avail_by[1] = from.message;
      p.partner = u.partner;
    }
    if (end >= p.avail[u.dir]) {
      p.avail[u.dir] = end;
      p.avail_by[u.dir] = message;
    }
    if (end >= p.end_all) {
      p.end_all = end;
      p.end_all_by = message;
    }
  }
}

}  // namespace flux::cosched
