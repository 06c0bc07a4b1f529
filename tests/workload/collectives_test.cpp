#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "workload/collectives.hpp"
#include "workload/validate.hpp"

namespace flux::workload {
namespace {

struct Result {
  Workload w;
  std::vector<Deps> done;
};

// Runs one collective on ranks 0..p-1 of a fresh workload, each rank ready after one compute task.
template <class F>
Result run(int p, F&& collective) {
  WorkloadSink sink;
  Result r;
  {
    TaskEmitter em(sink, p);
    std::vector<Deps> ready;
    for (int i = 0; i < p; ++i) ready.push_back({em.compute(i, 1e-3, "produce", {})});
    r.done = collective(em, ready);
    for (int i = 0; i < p; ++i)
      em.compute(i, 1e-3, "consume", {}, r.done[static_cast<std::size_t>(i)]);
    em.finish();
  }
  r.w = sink.take();
  validate_workload(r.w, "collective");
  return r;
}

CollectiveSpec spec(int p, double bytes, CollectiveAlgorithm a) {
  CollectiveSpec s;
  s.ranks.resize(static_cast<std::size_t>(p));
  std::iota(s.ranks.begin(), s.ranks.end(), 0);
  s.bytes = bytes;
  s.algorithm = a;
  s.reduce_seconds_per_byte = 1e-12;
  s.name = std::string(1, 'c');  // (assigning a literal trips GCC 12 -Wrestrict)
  return s;
}

std::vector<double> sent_per_rank(const Workload& w, int p) {
  std::vector<double> sent(static_cast<std::size_t>(p), 0.0);
  for (const Task& t : w.tasks)
    if (t.kind == TaskKind::send) sent[static_cast<std::size_t>(t.src)] += t.bytes;
  return sent;
}

int count(const Workload& w, TaskKind k) {
  int n = 0;
  for (const Task& t : w.tasks) n += t.kind == k;
  return n;
}

TEST(Collectives, BytesPerRankMatchTheBandwidthOptimalFormulas) {
  const double S = 6e6;
  for (int p : {2, 3, 4, 8}) {
    for (auto a : {CollectiveAlgorithm::ring, CollectiveAlgorithm::halving_doubling}) {
      if (a == CollectiveAlgorithm::halving_doubling && (p & (p - 1)) != 0) continue;
      const auto ar = run(
          p, [&](TaskEmitter& em, auto& ready) { return all_reduce(em, spec(p, S, a), ready); });
      const auto rs = run(p, [&](TaskEmitter& em, auto& ready) {
        return reduce_scatter(em, spec(p, S, a), ready);
      });
      const auto ag = run(
          p, [&](TaskEmitter& em, auto& ready) { return all_gather(em, spec(p, S, a), ready); });
      for (int i = 0; i < p; ++i) {
        EXPECT_NEAR(sent_per_rank(ar.w, p)[static_cast<std::size_t>(i)], 2.0 * (p - 1) / p * S,
                    1e-6);
        EXPECT_NEAR(sent_per_rank(rs.w, p)[static_cast<std::size_t>(i)], 1.0 * (p - 1) / p * S,
                    1e-6);
        EXPECT_NEAR(sent_per_rank(ag.w, p)[static_cast<std::size_t>(i)], 1.0 * (p - 1) / p * S,
                    1e-6);
      }
      int levels = 0;
      while ((1 << levels) < p) ++levels;
      const int steps = a == CollectiveAlgorithm::ring ? p - 1 : levels;
      EXPECT_EQ(count(ar.w, TaskKind::send), p * 2 * steps);
      // One reduction task per rank and reduce-scatter step, on the compute chain.
      EXPECT_EQ(count(ar.w, TaskKind::compute), 2 * p + p * steps);
      EXPECT_EQ(count(ag.w, TaskKind::compute), 2 * p);
    }
  }
}

TEST(Collectives, RingStepsChainThroughReductions) {
  const auto r = run(4, [](TaskEmitter& em, auto& ready) {
    return all_reduce(em, spec(4, 4e6, CollectiveAlgorithm::ring), ready);
  });
  // Step k+1's send of rank i waits for the reduction of step k's chunk received from i-1.
  for (const Task& t : r.w.tasks) {
    if (t.kind != TaskKind::send || t.name != "c.rs1") continue;
    ASSERT_EQ(t.after.size(), 1u);
    const Task& red = r.w.tasks[static_cast<std::size_t>(t.after[0])];
    EXPECT_EQ(red.kind, TaskKind::compute);
    EXPECT_EQ(red.gpu, t.src);
    EXPECT_EQ(red.name, "c.rs0.red");
    EXPECT_NEAR(red.duration, 1e6 * 1e-12, 1e-18);
  }
}

TEST(Collectives, OverlappedCollectivesLeaveTheComputeStreamAlone) {
  CollectiveSpec s = spec(4, 4e6, CollectiveAlgorithm::ring);
  s.reduce_in_stream = false;
  const auto r = run(4, [&](TaskEmitter& em, auto& ready) { return all_reduce(em, s, ready); });
  EXPECT_EQ(count(r.w, TaskKind::compute), 8);
  EXPECT_EQ(count(r.w, TaskKind::send), 4 * 6);
}

TEST(Collectives, AllToAllSkipsEmptyPairsAndRingPassRotates) {
  const std::vector<std::vector<double>> bytes = {{5, 1, 0}, {2, 0, 3}, {0, 0, 9}};
  const auto a2a = run(3, [&](TaskEmitter& em, auto& ready) {
    return all_to_all(em, spec(3, 0, CollectiveAlgorithm::direct), bytes, ready);
  });
  EXPECT_EQ(count(a2a.w, TaskKind::send), 3);  // 0->1, 1->0, 1->2; diagonal stays local
  EXPECT_EQ(a2a.done[2].size(), 1u);
  const auto ring = run(4, [](TaskEmitter& em, auto& ready) {
    return ring_pass(em, spec(4, 100, CollectiveAlgorithm::ring), ready);
  });
  EXPECT_EQ(count(ring.w, TaskKind::send), 4 * 3);
  for (const Task& t : ring.w.tasks) {
    if (t.kind == TaskKind::send) {
      EXPECT_EQ(t.dst, (t.src + 1) % 4);
    }
  }
}

}  // namespace
}  // namespace flux::workload
