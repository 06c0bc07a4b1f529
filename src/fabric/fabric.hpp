#pragma once
// The optical fabric (flux.fabric/1; docs/models.md, docs/formats.md) and circuit schedules
// (flux.circuit-schedule/1).
#include <cstdint>
#include <string>
#include <vector>

namespace flux::fabric {

enum class CircuitKind { duplex, simplex };

inline constexpr double kDefaultNicWindow = 1e-6;  // s: 100 KB at 800 Gb/s

struct Fabric {
  int gpus = 0;
  int ocs = 1;                  // σ
  double link_rate = 0.0;       // B, bytes/s per direction
  double latency = 0.0;         // α, seconds per message
  double reconfig_delay = 0.0;  // τ, seconds
  CircuitKind circuit = CircuitKind::duplex;
  bool initial_config_free = false;
  // Seconds of line rate a NIC stages per message on the wire (its window is link_rate ×
  // nic_window bytes); optional in flux.fabric/1.
  double nic_window = kDefaultNicWindow;
};

struct MessagePiece {
  int sw = 0;
  double start = 0.0, end = 0.0;
  double bytes = 0.0;
  int from = -1, to = -1;  // hop endpoints for relayed (two-hop) pieces; -1 = the message's own
};

// Placement of one send task: either atomic (sw/start) or split into pieces.
struct MessagePlacement {
  std::int64_t task = 0;  // task id (file id)
  int sw = -1;
  double start = 0.0;
  std::vector<MessagePiece> pieces;  // non-empty = split message
};

struct CircuitInterval {
  int sw = 0;
  int a = 0, b = 0;  // simplex: a sends, b receives
  double up = 0.0, down = 0.0;
};

struct CircuitSchedule {
  std::string scheduler;
  std::vector<MessagePlacement> messages;
  std::vector<CircuitInterval> circuits;
  double iteration_time = 0.0;
};

}  // namespace flux::fabric
