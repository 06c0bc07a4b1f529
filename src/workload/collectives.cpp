#include "workload/collectives.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace flux::workload {
namespace {

enum class Phase { reduce_scatter, all_gather };

// One exchange step: position i sends `chunk` bytes to position partner(i); with `reduce`, the
// receiver then reduces the chunk. `cur` holds, per position, what its next send waits for.
template <class Partner>
void step(TaskEmitter& em, const CollectiveSpec& spec, TaskTags tags, std::vector<Deps>& cur,
          double chunk, bool reduce, const std::string& label, Partner partner) {
  const std::size_t p = spec.ranks.size();
  std::vector<int> received(p, -1);
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t j = partner(i);
    received[j] = em.send(spec.ranks[i], spec.ranks[j], chunk, spec.name + label, tags, cur[i]);
  }
  for (std::size_t j = 0; j < p; ++j) {
    if (reduce && spec.reduce_in_stream) {
      cur[j] = {em.compute(spec.ranks[j], chunk * spec.reduce_seconds_per_byte,
                           spec.name + label + ".red", tags, {received[j]})};
    } else {
      cur[j] = {received[j]};
    }
  }
}

void ring(TaskEmitter& em, const CollectiveSpec& spec, const TaskTags& tags, std::vector<Deps>& cur,
          Phase phase) {
  const std::size_t p = spec.ranks.size();
  const double chunk = spec.bytes / static_cast<double>(p);
  const bool reduce = phase == Phase::reduce_scatter;
  for (std::size_t k = 0; k + 1 < p; ++k)
    step(em, spec, tags, cur, chunk, reduce,
         std::string(reduce ? ".rs" : ".ag") + std::to_string(k),
         [p](std::size_t i) { return (i + 1) % p; });
}

void halving_doubling(TaskEmitter& em, const CollectiveSpec& spec, const TaskTags& tags,
                      std::vector<Deps>& cur, Phase phase) {
  const std::size_t p = spec.ranks.size();
  int levels = 0;
  while ((std::size_t{1} << levels) < p) ++levels;
  for (int k = 0; k < levels; ++k) {
    // Halving pairs far partners first with the largest chunks; doubling mirrors it.
    const bool rs = phase == Phase::reduce_scatter;
    const std::size_t dist = rs ? p >> (k + 1) : std::size_t{1} << k;
    const double chunk = rs ? spec.bytes / static_cast<double>(std::size_t{2} << k)
                            : spec.bytes / static_cast<double>(p) * static_cast<double>(dist);
    step(em, spec, tags, cur, chunk, rs, std::string(rs ? ".rs" : ".ag") + std::to_string(k),
         [dist](std::size_t i) { return i ^ dist; });
  }
}

void run_phase(TaskEmitter& em, const CollectiveSpec& spec, const TaskTags& tags,
               std::vector<Deps>& cur, Phase phase) {
  if (spec.algorithm == CollectiveAlgorithm::halving_doubling)
    halving_doubling(em, spec, tags, cur, phase);
  else
    ring(em, spec, tags, cur, phase);
}

std::vector<Deps> run(TaskEmitter& em, const CollectiveSpec& spec, const std::vector<Deps>& ready,
                      std::initializer_list<Phase> phases) {
  std::vector<Deps> cur = ready;
  if (spec.ranks.size() < 2) return cur;
  TaskTags tags = spec.tags;
  tags.collective = em.new_collective();
  for (Phase ph : phases) run_phase(em, spec, tags, cur, ph);
  return cur;
}

}  // namespace

std::vector<Deps> all_reduce(TaskEmitter& em, const CollectiveSpec& spec,
                             const std::vector<Deps>& ready) {
  return run(em, spec, ready, {Phase::reduce_scatter, Phase::all_gather});
}

std::vector<Deps> reduce_scatter(TaskEmitter& em, const CollectiveSpec& spec,
                                 const std::vector<Deps>& ready) {
  return run(em, spec, ready, {Phase::reduce_scatter});
}

std::vector<Deps> all_gather(TaskEmitter& em, const CollectiveSpec& spec,
                             const std::vector<Deps>& ready) {
  return run(em, spec, ready, {Phase::all_gather});
}

std::vector<Deps> all_to_all(TaskEmitter& em, const CollectiveSpec& spec,
                             const std::vector<std::vector<double>>& bytes,
                             const std::vector<Deps>& ready) {
  const std::size_t p = spec.ranks.size();
  std::vector<Deps> done(p);
  TaskTags tags = spec.tags;
  tags.collective = em.new_collective();
  for (std::size_t i = 0; i < p; ++i)
    for (std::size_t j = 0; j < p; ++j)
      if (i != j && bytes[i][j] > 0)
        done[j].push_back(
            em.send(spec.ranks[i], spec.ranks[j], bytes[i][j], spec.name, tags, ready[i]));
  return done;
}

std::vector<Deps> ring_pass(TaskEmitter& em, const CollectiveSpec& spec,
                            const std::vector<Deps>& ready) {
  std::vector<Deps> cur = ready;
  const std::size_t p = spec.ranks.size();
  if (p < 2) return cur;
  TaskTags tags = spec.tags;
  tags.collective = em.new_collective();
  for (std::size_t k = 0; k + 1 < p; ++k)
    step(em, spec, tags, cur, spec.bytes, false, fmt::format(".step{}", k),
         [p](std::size_t i) { return (i + 1) % p; });
  return cur;
}

std::vector<Deps> broadcast(TaskEmitter& em, const CollectiveSpec& spec,
                            const std::vector<Deps>& ready, bool to_root) {
  std::vector<Deps> cur = ready;
  const std::size_t p = spec.ranks.size();
  if (p < 2) return cur;
  TaskTags tags = spec.tags;
  tags.collective = em.new_collective();
  // Broadcast: position k forwards to k + 1 once it holds the data and is ready itself; reduce
  // runs the same chain backwards, so position 0 ends with the result.
  for (std::size_t k = 0; k + 1 < p; ++k) {
    const std::size_t from = to_root ? p - 1 - k : k;
    const std::size_t to = to_root ? from - 1 : from + 1;
    Deps deps = cur[from];
    if (k > 0) deps.insert(deps.end(), ready[from].begin(), ready[from].end());
    cur[to].push_back(em.send(spec.ranks[from], spec.ranks[to], spec.bytes,
                              spec.name + fmt::format(".step{}", k), tags, deps));
  }
  return cur;
}

std::vector<Deps> barrier(const std::vector<Deps>& ready) {
  Deps all;
  for (const Deps& d : ready) all.insert(all.end(), d.begin(), d.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return std::vector<Deps>(ready.size(), all);
}

}  // namespace flux::workload
