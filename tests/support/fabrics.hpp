#pragma once
// The fabrics of the tests, in memory (make_fabric) and as flux.fabric/1 text (fabric_json).
#include <string>

#include "fabric/fabric.hpp"

namespace flux::testing {

inline constexpr double kLinkRate = 1e11;  // bytes/s: 800 Gb/s

// What make_fabric leaves at its default. A rate of 1 byte/s makes every size a time, which keeps
// hand-checked schedules in small whole numbers; tests of real-sized traffic pass kLinkRate.
struct FabricOptions {
  double rate = 1.0;
  double alpha = 0.0;  // s per message
  fabric::CircuitKind kind = fabric::CircuitKind::duplex;
  bool initial_free = false;  // the first configuration costs no τ
};

inline fabric::Fabric make_fabric(int gpus, int ocs, double tau, const FabricOptions& o = {}) {
  fabric::Fabric f;
  f.gpus = gpus;
  f.ocs = ocs;
  f.link_rate = o.rate;
  f.latency = o.alpha;
  f.reconfig_delay = tau;
  f.circuit = o.kind;
  f.initial_config_free = o.initial_free;
  return f;
}

// The same at unit rate, spelled positionally (the cosched tests vary the circuit kind and the
// free first configuration together).
inline fabric::Fabric make_fabric(int gpus, int ocs, double tau, fabric::CircuitKind kind,
                                  bool initial_free = false) {
  return make_fabric(gpus, ocs, tau, {.kind = kind, .initial_free = initial_free});
}

// A flux.fabric/1 file's text. The numbers are spliced in as written, so a test can also write
// values no Fabric holds (negative, out of range, a string); `extra` goes before "gpus" and is
// either empty or fields with a trailing comma, e.g. R"("nic_window": 2e-6, )".
struct FabricText {
  int gpus = 8;
  int ocs = 2;
  std::string rate = "1e11";
  std::string latency = "0";
  std::string tau = "1e-5";
  std::string circuit = "duplex";
  bool initial_free = false;
  std::string extra = "";
};

inline std::string fabric_json(const FabricText& f) {
  return R"({"format": "flux.fabric/1", )" + f.extra + R"("gpus": )" + std::to_string(f.gpus) +
         R"(, "ocs": )" + std::to_string(f.ocs) + R"(, "link_rate": )" + f.rate +
         R"(, "latency": )" + f.latency + R"(, "reconfig_delay": )" + f.tau + R"(, "circuit": ")" +
         f.circuit + R"(", "initial_config_free": )" + (f.initial_free ? "true" : "false") + "}";
}

}  // namespace flux::testing
