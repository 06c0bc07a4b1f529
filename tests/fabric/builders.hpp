#pragma once
// Small workloads and fabrics built in code for the fabric tests.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "workload/workload.hpp"

namespace flux::test {

struct WorkloadBuilder {
  Workload w;
  explicit WorkloadBuilder(int gpus) { w.gpus = gpus; }

  int compute(int gpu, double duration, std::vector<int> after = {}) {
    Task t;
    t.id = static_cast<std::int64_t>(w.tasks.size());
    t.kind = TaskKind::compute;
    t.gpu = gpu;
    t.duration = duration;
    t.name = fmt::format("c{}", t.id);
    t.after = std::move(after);
    w.tasks.push_back(std::move(t));
    return static_cast<int>(w.tasks.size()) - 1;
  }
  int send(int src, int dst, double bytes, std::vector<int> after = {}) {
    Task t;
    t.id = static_cast<std::int64_t>(w.tasks.size());
    t.kind = TaskKind::send;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.name = fmt::format("s{}", t.id);
    t.after = std::move(after);
    w.tasks.push_back(std::move(t));
    return static_cast<int>(w.tasks.size()) - 1;
  }
};

inline Fabric make_fabric(int gpus, int ocs, double rate, double tau, double alpha = 0.0,
                          CircuitKind kind = CircuitKind::duplex, bool initial_free = false) {
  Fabric f;
  f.gpus = gpus;
  f.ocs = ocs;
  f.link_rate = rate;
  f.latency = alpha;
  f.reconfig_delay = tau;
  f.circuit = kind;
  f.initial_config_free = initial_free;
  return f;
}

inline bool contains(const std::vector<std::string>& lines, const std::string& a,
                     const std::string& b = "") {
  for (const std::string& l : lines)
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  return false;
}

}  // namespace flux::test
