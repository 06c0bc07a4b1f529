// The rotor cycle's lookups against their definitions, slot by slot: the dispatcher relies on
// them to visit only the booked circuit directions, so a wrong next slot or order would change
// which bytes go when.
#include "fabric_baselines/rotor_cycle.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace flux {
namespace {

// (GPUs, OCSes, duplex): odd n leaves a GPU idle per matching; σ sharing a factor with the M
// matchings (3 on 3 OCSes, 6 shifts on 2 or 3) makes each OCS play only some of them.
class RotorCycleLookups : public ::testing::TestWithParam<std::tuple<int, int, bool>> {};

TEST_P(RotorCycleLookups, MatchTheMatchingsDealtSlotBySlot) {
  const auto [n, ocs, duplex] = GetParam();
  const std::vector<Matching> ms = duplex ? round_robin_matchings(n) : shift_permutations(n);
  const RotorCycle cycle(ms, n, ocs, duplex);
  const int m_count = static_cast<int>(ms.size());
  for (int m = 0; m < m_count; ++m) {
    std::vector<int> partner(static_cast<std::size_t>(n), -1), order(partner);
    int rank = 0;
    for (std::size_t c = 0; c < ms[static_cast<std::size_t>(m)].size(); ++c) {
      const auto [a, b] = ms[static_cast<std::size_t>(m)][c];
      partner[static_cast<std::size_t>(a)] = b;
      order[static_cast<std::size_t>(a)] = rank++;
      EXPECT_EQ(cycle.circuit_of(m, a), static_cast<int>(c));
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
}

INSTANTIATE_TEST_SUITE_P(Sizes, RotorCycleLookups,
                         ::testing::Values(std::tuple{6, 2, true}, std::tuple{7, 3, true},
                                           std::tuple{4, 3, true}, std::tuple{8, 2, true},
                                           std::tuple{5, 2, false}, std::tuple{7, 2, false},
                                           std::tuple{7, 3, false}));

}  // namespace
}  // namespace flux
