#pragma once
// Circuit state of every OCS port during list scheduling (greedy, exhaustive search, left-shift,
// rolling-horizon window boundaries). Messages are appended: each starts after everything already
// placed on its ports. A port keeps its circuit while consecutive users share it (circuit reuse,
// no τ); switching to a different circuit costs τ after the port's last use; a duplex circuit
// carries both directions at once, a simplex circuit has separate TX and RX ports.
// Appending in start-time order reproduces exactly the pairwise port-conflict constraints of the
// MILP, because the setup matrix obeys the triangle inequality.
// Each availability remembers the message it comes from, so a list schedule can name the message
// that delayed another on a port (the local search walks these links along the critical path).
// Every query is O(1).
#include <utility>
#include <vector>

#include "fabric/fabric.hpp"

namespace flux::cosched {

// OCS ports per switch: one per GPU for duplex circuits; a TX port g and an RX port gpus + g for
// simplex ones. Port indices run switch-major: sw * ports_per_switch + local port.
[[nodiscard]] inline int ports_per_switch(const fabric::Fabric& f) {
  return f.circuit == fabric::CircuitKind::duplex ? f.gpus : 2 * f.gpus;
}

// One end of a message src→dst on OCS `sw` (end 0 = the sender's port, end 1 = the receiver's):
// the port it occupies, the GPU at the other end of the circuit, and the direction it uses there
// (duplex: 0 out, 1 in; simplex ports carry one direction, always 0).
struct PortUse {
  int port, partner, dir;
};
// Inline: list scheduling and slack-gap-fill ask it for every end of every message they try.
[[nodiscard]] inline PortUse port_use(const fabric::Fabric& f, int sw, int src, int dst, int end) {
  const int base = sw * ports_per_switch(f);
  if (f.circuit == fabric::CircuitKind::duplex)
    return end == 0 ? PortUse{base + src, dst, 0} : PortUse{base + dst, src, 1};
  return end == 0 ? PortUse{base + src, dst, 0} : PortUse{base + f.gpus + dst, src, 0};
}

class PortBook {
 public:
  explicit PortBook(const fabric::Fabric& fabric);

  // Earliest start ≥ `ready` for a message src→dst on OCS `sw`, and the message whose end (plus
  // τ for a circuit change) sets it when that is later than `ready` (-1 when `ready` or the
  // port's first set-up binds).
  struct Start {
    double time;
    int blocker;
  };
  [[nodiscard]] Start start(int sw, int src, int dst, double ready) const;
  [[nodiscard]] double earliest(int sw, int src, int dst, double ready) const {
    return start(sw, src, dst, ready).time;
  }
  // True when both ports already hold the src→dst circuit on `sw`.
  [[nodiscard]] bool reuses(int sw, int src, int dst) const;
  // Circuits (sender, receiver; any order for duplex) that placing src→dst on `sw` would tear
  // down at its ports.
  [[nodiscard]] std::vector<std::pair<int, int>> displaced(int sw, int src, int dst) const;
  // Appends a message ending at `end`; `message` (any id, -1 = unnamed) is the blocker `start`
  // reports for what it delays.
  void place(int sw, int src, int dst, double end, int message = -1);

 private:
  struct Port {
    int partner = -1;  // current circuit: the GPU at the other end, -1 = never set
    double end_all = 0.0;
    double avail[2] = {0.0, 0.0};  // earliest same-circuit start per direction (out, in)
    int end_all_by = -1;           // the messages those times come from
    int avail_by[2] = {-1, -1};
  };
  struct Cause {
    double time;
    int message;
  };
  [[nodiscard]] Cause port_cause(const PortUse& u) const;
  [[nodiscard]] PortUse use(int sw, int src, int dst, int end) const {
    return port_use(fabric_, sw, src, dst, end);
  }

  fabric::Fabric fabric_;
  std::vector<Port> ports_;
};

}  // namespace flux::cosched
