#pragma once
// The workloads of the tests: tasks built by hand (compute, send, make_workload, WorkloadBuilder),
// a seeded random DAG (random_workload) and a ring all-reduce.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "workload/workload.hpp"

namespace flux::testing {

inline workload::Task compute(int gpu, double duration, std::vector<int> after = {}) {
  workload::Task t;
  t.kind = workload::TaskKind::compute;
  t.gpu = gpu;
  t.duration = duration;
  t.after = std::move(after);
  return t;
}

inline workload::Task send(int src, int dst, double bytes, std::vector<int> after = {}) {
  workload::Task t;
  t.kind = workload::TaskKind::send;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.after = std::move(after);
  return t;
}

// `after` holds indices into `tasks`; the ids start at 100 so that a mix-up of ids and indices
// shows.
inline workload::Workload make_workload(int gpus, std::vector<workload::Task> tasks) {
  for (std::size_t i = 0; i < tasks.size(); ++i) tasks[i].id = static_cast<std::int64_t>(i) + 100;
  return workload::Workload{.gpus = gpus, .tasks = std::move(tasks)};
}

// A workload built one task at a time; ids are the task indices and names "c<id>" / "s<id>",
// which the checkers' messages quote.
struct WorkloadBuilder {
  workload::Workload w;
  explicit WorkloadBuilder(int gpus) { w.gpus = gpus; }

  int compute(int gpu, double duration, std::vector<int> after = {}) {
    return add(testing::compute(gpu, duration, std::move(after)), 'c');
  }
  int send(int src, int dst, double bytes, std::vector<int> after = {}) {
    return add(testing::send(src, dst, bytes, std::move(after)), 's');
  }

 private:
  int add(workload::Task t, char prefix) {
    t.id = static_cast<std::int64_t>(w.tasks.size());
    t.name = fmt::format("{}{}", prefix, t.id);
    w.tasks.push_back(std::move(t));
    return static_cast<int>(w.tasks.size()) - 1;
  }
};

// Units of random_workload's sizes: by default 1 byte and 1 s, which on a unit-rate fabric keep
// every time a small whole number.
struct WorkloadScale {
  double bytes = 1.0;
  double seconds = 1.0;
};

// A random DAG on `gpus` GPUs: `messages` sends of 1..4 byte units, some compute tasks of 1..3
// time units (chained per GPU) in between, random edges from earlier tasks (each with
// `edge_probability`; sparser DAGs leave more sends free to contend for ports).
inline workload::Workload random_workload(std::uint64_t seed, int gpus, int messages,
                                          double edge_probability = 0.25,
                                          WorkloadScale scale = {}) {
  Rng rng(seed);
  std::vector<workload::Task> tasks;
  std::vector<int> last_compute(gpus, -1);
  int sends = 0;
  while (sends < messages) {
    const int here = static_cast<int>(tasks.size());
    std::vector<int> after;
    for (int p = 0; p < here; ++p)
      if (rng.uniform() < edge_probability) after.push_back(p);
    if (rng.uniform() < 0.3) {
      const int g = static_cast<int>(rng.below(gpus));
      if (last_compute[g] >= 0 &&
          std::find(after.begin(), after.end(), last_compute[g]) == after.end())
        after.push_back(last_compute[g]);
      tasks.push_back(compute(g, static_cast<double>(1 + rng.below(3)) * scale.seconds, after));
      last_compute[g] = here;
    } else {
      const int src = static_cast<int>(rng.below(gpus));
      const int dst = (src + 1 + static_cast<int>(rng.below(gpus - 1))) % gpus;
      tasks.push_back(send(src, dst, static_cast<double>(1 + rng.below(4)) * scale.bytes, after));
      ++sends;
    }
  }
  return make_workload(gpus, std::move(tasks));
}

// Ring all-reduce of `bytes` over GPUs 0..p-1: 2(p-1) steps, each GPU sends bytes/p to i+1 after
// it received the previous step's chunk from i-1.
inline workload::Workload ring_allreduce(int p, double bytes) {
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

}  // namespace flux::testing
