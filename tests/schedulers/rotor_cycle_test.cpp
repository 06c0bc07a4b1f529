// The rotor cycle's lookups against their definitions, slot by slot, and the rotor schedulers
// against the same rotor played as windows that list all their circuits: the dispatcher relies
// on the lookups to visit only the booked circuit directions, so a wrong next slot or order, or
// a missed booking, would change which bytes go when. Both also run on the sparse direction
// indexes the dispatcher uses on large fabrics.
#include "fabric_baselines/rotor_cycle.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include "fabric_baselines/circuit_dispatch.hpp"
#include "fabric_baselines/rotornet.hpp"
#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

// (GPUs, OCSes, duplex): odd n leaves a GPU idle per matching; σ sharing a factor with the M
// matchings (3 on 3 OCSes, 6 shifts on 2 or 3) makes each OCS play only some of them.
class RotorCycleLookups : public ::testing::TestWithParam<std::tuple<int, int, bool>> {};

TEST_P(RotorCycleLookups, MatchTheMatchingsDealtSlotBySlot) {
  const auto [n, ocs, duplex] = GetParam();
  const std::vector<fabric_baselines::Matching> ms =
      duplex ? fabric_baselines::round_robin_matchings(n) : fabric_baselines::shift_permutations(n);
  const fabric_baselines::RotorCycle cycle(ms, n, ocs, duplex);
  const int m_count = static_cast<int>(ms.size());
  for (int m = 0; m < m_count; ++m) {
    std::vector<int> partner(static_cast<std::size_t>(n), -1), order(partner);
    int rank = 0;
    for (std::size_t c = 0; c < ms[static_cast<std::size_t>(m)].size(); ++c) {
      const auto [a, b] = ms[static_cast<std::size_t>(m)][c];
      partner[static_cast<std::size_t>(a)] = b;
      order[static_cast<std::size_t>(a)] = rank++;
      EXPECT_EQ(cycle.circuit_of(m, a), static_cast<int>(c));
      EXPECT_EQ(cycle.circuit_into(m, b), static_cast<int>(c));
      EXPECT_EQ(cycle.matching_of(a, b), m);
      if (!duplex) continue;
      partner[static_cast<std::size_t>(b)] = a;
      order[static_cast<std::size_t>(b)] = rank++;
      EXPECT_EQ(cycle.circuit_of(m, b), static_cast<int>(c));
      EXPECT_EQ(cycle.matching_of(b, a), m);
    }
    for (int g = 0; g < n; ++g) {
      EXPECT_EQ(cycle.partner(m, g), partner[static_cast<std::size_t>(g)]) << m << " " << g;
      if (partner[static_cast<std::size_t>(g)] >= 0) {
        // Relative order is what matters: compare against the rank of every other direction.
        for (int h = 0; h < n; ++h) {
          if (partner[static_cast<std::size_t>(h)] < 0) continue;
          EXPECT_EQ(cycle.order(m, g) < cycle.order(m, h),
                    order[static_cast<std::size_t>(g)] < order[static_cast<std::size_t>(h)]);
        }
      }
    }
  }
  for (int sw = 0; sw < ocs; ++sw)
    for (int m = 0; m < m_count; ++m)
      for (std::int64_t from = 0; from < 3 * m_count; ++from) {
        std::int64_t want = -1;
        for (std::int64_t s = from; s < from + 2 * m_count && want < 0; ++s)
          if ((s * ocs + sw) % m_count == m) want = s;
        EXPECT_EQ(cycle.next_slot(sw, m, from), want) << sw << " " << m << " " << from;
        if (want >= 0) {
          EXPECT_EQ(cycle.matching_at(sw, want), m);
        }
      }
  for (int sw = 0; sw < ocs; ++sw)
    for (std::int64_t s = 0; s < 3 * m_count; ++s)
      EXPECT_EQ(cycle.following(cycle.matching_at(sw, s)), cycle.matching_at(sw, s + 1))
          << sw << " " << s;
}

INSTANTIATE_TEST_SUITE_P(Sizes, RotorCycleLookups,
                         ::testing::Values(std::tuple{6, 2, true}, std::tuple{7, 3, true},
                                           std::tuple{4, 3, true}, std::tuple{8, 2, true},
                                           std::tuple{5, 2, false}, std::tuple{7, 2, false},
                                           std::tuple{7, 3, false}));

// The rotor as it was played before the cycle: every window lists its n/2 circuits, and the
// dispatcher pumps every GPU of every window.
class ListedRotor final : public fabric_baselines::WindowSource {
 public:
  ListedRotor(const fabric::Fabric& f, fabric::Time slot)
      : ms_(f.circuit == fabric::CircuitKind::duplex
                ? fabric_baselines::round_robin_matchings(f.gpus)
                : fabric_baselines::shift_permutations(f.gpus)),
        ocs_(f.ocs),
        slot_(slot),
        tau_(fabric::to_time(f.reconfig_delay)),
        free_(f.initial_config_free),
        next_(static_cast<std::size_t>(f.ocs), 0) {}

  std::optional<fabric_baselines::Window> next(int sw, fabric::Time) override {
    const std::int64_t s = next_[static_cast<std::size_t>(sw)]++;
    const std::int64_t m = (s * ocs_ + sw) % static_cast<std::int64_t>(ms_.size());
    return fabric_baselines::Window{s * slot_ + (s == 0 && free_ ? 0 : tau_), (s + 1) * slot_,
                                    ms_[static_cast<std::size_t>(m)]};
  }

 private:
  std::vector<fabric_baselines::Matching> ms_;
  std::int64_t ocs_;
  fabric::Time slot_, tau_;
  bool free_;
  std::vector<std::int64_t> next_;
};

void expect_same(const fabric::ScheduleRun& got, const fabric::ScheduleRun& want) {
  EXPECT_EQ(got.schedule.iteration_time, want.schedule.iteration_time);
  EXPECT_EQ(got.events, want.events);
  ASSERT_EQ(got.schedule.hops.size(), want.schedule.hops.size());
  for (std::size_t t = 0; t < want.schedule.hops.size(); ++t) {
    const auto& g = got.schedule.hops[t];
    const auto& h = want.schedule.hops[t];
    ASSERT_EQ(g.size(), h.size()) << "task " << t;
    for (std::size_t k = 0; k < h.size(); ++k)
      EXPECT_TRUE(std::tie(g[k].sw, g[k].from, g[k].to, g[k].start, g[k].end, g[k].bytes) ==
                  std::tie(h[k].sw, h[k].from, h[k].to, h[k].start, h[k].end, h[k].bytes))
          << "task " << t << " hop " << k;
  }
  ASSERT_EQ(got.schedule.circuits.size(), want.schedule.circuits.size());
  for (std::size_t c = 0; c < want.schedule.circuits.size(); ++c) {
    const fabric::TimedCircuit& g = got.schedule.circuits[c];
    const fabric::TimedCircuit& h = want.schedule.circuits[c];
    EXPECT_TRUE(std::tie(g.up, g.down, g.sw, g.a, g.b) == std::tie(h.up, h.down, h.sw, h.a, h.b))
        << "circuit " << c;
  }
}

// (GPUs, OCSes, duplex, VLB, α, free first configuration)
class RotorCycleDispatch
    : public ::testing::TestWithParam<std::tuple<int, int, bool, bool, double, bool>> {};

TEST_P(RotorCycleDispatch, SameScheduleAsListingEveryCircuit) {
  const auto [n, ocs, duplex, vlb, alpha, free] = GetParam();
  const fabric::Fabric f = testing::make_fabric(
      n, ocs, 1e-5,
      {.rate = testing::kLinkRate,
       .alpha = alpha,
       .kind = duplex ? fabric::CircuitKind::duplex : fabric::CircuitKind::simplex,
       .initial_free = free});
  const fabric::SchedulerOptions opt;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    // Up to 20 MB: a message spans several 90 µs windows.
    const workload::Workload w =
        testing::random_workload(seed, n, 60, 0.25, {.bytes = 5e6, .seconds = 1e-5});
    ListedRotor listed(f, fabric_baselines::rotor_slot(f, opt));
    const fabric::ScheduleRun want =
        run_dispatch(w, f, listed, {.relay = vlb, .used_circuits_only = true}, "listed");
    ASSERT_FALSE(want.schedule.circuits.empty());
    expect_same(fabric_baselines::schedule_rotornet(w, f, opt, vlb), want);
    // The sparse queue and booking indexes (the dispatch's choice above a size; a limit of 0
    // forces them here) must play the same schedule as the dense ones these sizes get by default.
    ListedRotor relisted(f, fabric_baselines::rotor_slot(f, opt));
    expect_same(
        run_dispatch(w, f, relisted,
                     {.relay = vlb, .used_circuits_only = true, .dense_queue_index_bytes = 0},
                     "listed"),
        want);
    expect_same(fabric_baselines::schedule_rotornet(w, f, opt, vlb, 0), want);
  }
}

INSTANTIATE_TEST_SUITE_P(Fabrics, RotorCycleDispatch,
                         ::testing::Values(std::tuple{6, 2, true, false, 0.0, false},
                                           std::tuple{6, 2, true, true, 0.0, false},
                                           std::tuple{7, 3, true, true, 1e-6, true},
                                           std::tuple{8, 1, true, false, 1e-6, false},
                                           std::tuple{7, 2, false, false, 0.0, true},
                                           std::tuple{7, 2, false, true, 1e-6, false}));

}  // namespace
}  // namespace flux::schedulers
