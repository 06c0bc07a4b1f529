#pragma once
// Small workloads and fabrics built in code for the fabric tests.
#include <fmt/format.h>

#include <cmath>

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

#include "core/rng.hpp"

namespace flux::test {

// A seeded random iteration: per GPU a compute chain; after each compute step, a few sends to
// random peers whose completion gates the receiver's next compute step.
inline Workload random_workload(int gpus, int steps, std::uint64_t seed, double max_bytes = 4e6) {
  Rng rng(seed);
  WorkloadBuilder b(gpus);
  std::vector<int> last(static_cast<std::size_t>(gpus), -1);
  for (int s = 0; s < steps; ++s) {
    std::vector<std::vector<int>> inbox(static_cast<std::size_t>(gpus));
    std::vector<int> computed(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g) {
      std::vector<int> after;
      if (last[static_cast<std::size_t>(g)] >= 0)
        after.push_back(last[static_cast<std::size_t>(g)]);
      computed[static_cast<std::size_t>(g)] = b.compute(g, rng.uniform(1e-5, 1e-4), after);
    }
    for (int g = 0; g < gpus; ++g) {
      int sends = 1 + static_cast<int>(rng.below(2));
      for (int k = 0; k < sends; ++k) {
        int dst = static_cast<int>(rng.below(static_cast<std::uint64_t>(gpus - 1)));
        if (dst >= g) ++dst;
        int id = b.send(g, dst, std::floor(rng.uniform(0, max_bytes)),
                        {computed[static_cast<std::size_t>(g)]});
        inbox[static_cast<std::size_t>(dst)].push_back(id);
      }
    }
    for (int g = 0; g < gpus; ++g) {
      std::vector<int> after = inbox[static_cast<std::size_t>(g)];
      after.push_back(computed[static_cast<std::size_t>(g)]);
      last[static_cast<std::size_t>(g)] = b.compute(g, 1e-6, after);
    }
  }
  return b.w;
}

// Ring all-reduce of `bytes` over GPUs 0..p-1: 2(p-1) steps, each GPU sends bytes/p to i+1 after
// it received the previous step's chunk from i-1.
inline Workload ring_allreduce(int p, double bytes) {
  WorkloadBuilder b(p);
  std::vector<int> prev(static_cast<std::size_t>(p), -1);
  for (int step = 0; step < 2 * (p - 1); ++step) {
    std::vector<int> cur(static_cast<std::size_t>(p));
    for (int i = 0; i < p; ++i) {
      int from_left = prev[static_cast<std::size_t>((i + p - 1) % p)];
      std::vector<int> after;
      if (from_left >= 0) after.push_back(from_left);
      cur[static_cast<std::size_t>(i)] = b.send(i, (i + 1) % p, bytes / p, after);
    }
    prev = cur;
  }
  return b.w;
}

}  // namespace flux::test
