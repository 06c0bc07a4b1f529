// RotorLB as RotorNet's published model plays it, checked cycle by cycle on matrices whose
// deliveries were worked out by hand from the rule (rotor_lb.hpp), plus its two building blocks.
#include "fabric_baselines/rotor_lb.hpp"

#include <gtest/gtest.h>

#include "fabric_baselines/rotornet.hpp"
#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/sim_checks.hpp"
#include "support/workloads.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"

namespace flux::schedulers {
namespace {

using testing::make_fabric;
using testing::WorkloadBuilder;

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-12) << k;
}

TEST(FairShare, WaterFillsAndReturnsSmallDemandsWhole) {
  expect_near(fabric_baselines::fair_share({2, 1}, 1), {0.5, 0.5});
  expect_near(fabric_baselines::fair_share({0.2, 5, 0, 1}, 1.2), {0.2, 0.5, 0, 0.5});
  expect_near(fabric_baselines::fair_share({0.25, 0.5}, 3), {0.25, 0.5});
  expect_near(fabric_baselines::fair_share({1, 1}, 0), {0, 0});
}

// Two senders offer to one receiver. Sender 0 has 2 for column 0 and 1 for column 1 on a link of
// 1; sender 1 has 3 for column 0 on a link of 1. Room: column 0 = 0.5, column 1 = 1.
// Round 1: offers scaled to the links: s0 (0.5, 0.5), s1 (1, 0). Column 0 shares its room 0.5
// fairly: 0.25 each; column 1 takes s0's 0.5. Column 0 is full; s0 has 0.25 of link left and
// re-offers its column 1 remainder 0.5 -> 0.25; s1 has nothing left to offer that fits.
// Round 2: column 1 takes 0.25 more. Result: s0 (0.25, 0.75), s1 (0.25, 0).
TEST(RotorLbAccept, SharesEachRoomFairlyAndRespreadsCutOffers) {
  const auto acc = fabric_baselines::rotorlb_accept({{2, 1}, {3, 0}}, {1, 1}, {0.5, 1}, 1e-12);
  EXPECT_DOUBLE_EQ(acc[0][0], 0.25);
  EXPECT_DOUBLE_EQ(acc[0][1], 0.75);
  EXPECT_DOUBLE_EQ(acc[1][0], 0.25);
  EXPECT_DOUBLE_EQ(acc[1][1], 0.0);
}

TEST(RotorLbAccept, AFullRoomAcceptsNothing) {
  const auto acc = fabric_baselines::rotorlb_accept({{2, 1}}, {1}, {0, 1}, 1e-12);
  EXPECT_DOUBLE_EQ(acc[0][0], 0.0);
  EXPECT_DOUBLE_EQ(acc[0][1], 1.0);  // the whole link goes to the open column
}

// The flat-row form with one scratch kept across receivers of different shapes (as the
// dispatcher calls it, slot after slot) gives each the accept of a fresh call, and leaves in
// `room` what it did not fill.
TEST(RotorLbAccept, ScratchKeptAcrossCallsOfOtherShapesChangesNothing) {
  fabric_baselines::AcceptScratch scratch;
  std::vector<double> offers{2, 1, 3, 0}, links{1, 1}, room{0.5, 1}, accepted(4, -1.0);
  fabric_baselines::rotorlb_accept(offers, links, room, 1e-12, accepted, scratch);
  expect_near(accepted, {0.25, 0.75, 0.25, 0.0});
  expect_near(room, {0.0, 0.25});  // column 0 filled; column 1 took 0.75 of 1
  std::vector<double> offers3{1, 4, 2}, link3{2}, room3{1, 1, 1}, accepted3(3, -1.0);
  fabric_baselines::rotorlb_accept(offers3, link3, room3, 1e-12, accepted3, scratch);
  const auto fresh = fabric_baselines::rotorlb_accept({{1, 4, 2}}, {2}, {1, 1, 1}, 1e-12);
  ASSERT_EQ(fresh.size(), 1U);
  expect_near(accepted3, fresh[0]);
  expect_near(accepted3, {2.0 / 3, 2.0 / 3, 2.0 / 3});
}

// One OCS, duplex, 1 byte/ps, τ = 1 µs, 90 % duty: slots of 10 µs carry L = 9e6 bytes per
// direction. Matchings (circle method), n = 4: M0 {0-3, 1-2}, M1 {1-3, 0-2}, M2 {2-3, 0-1};
// n = 8: M0 {0-7, 1-6, 2-5, 3-4}, M1 {0-2, 1-7, 3-6, 4-5}, M2 {0-4, 1-3, 2-7, 5-6},
// M3 {0-6, 1-5, 2-4, 3-7}, M4 {0-1, 2-6, 3-5, 4-7}, M5 {0-3, 1-2, 4-6, 5-7},
// M6 {0-5, 1-4, 2-3, 6-7}. A cycle is n - 1 slots.
constexpr double kL = 9e6;

// Bytes delivered to their destination in each cycle, in units of L; every send ready at 0.
std::vector<double> delivered_per_cycle(int n, const std::vector<std::vector<double>>& d) {
  WorkloadBuilder b(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (d[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] > 0)
        b.send(i, j, d[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * kL);
  const fabric::Fabric f = make_fabric(n, 1, 1e-6, {.rate = 1e12});
  const fabric::SimResult r = simulate(b.w, f, "rotornet-vlb");
  testing::expect_complete_run(b.w, f, r);
  const fabric::Time cycle = (n - 1) * fabric_baselines::rotor_slot(f, {});
  std::vector<double> out;
  for (std::size_t t = 0; t < b.w.tasks.size(); ++t)
    for (const fabric::Hop& h : r.trace.hops[t]) {
      if (h.to != b.w.tasks[t].dst) continue;
      const auto c = static_cast<std::size_t>(h.start / cycle);
      if (out.size() <= c) out.resize(c + 1, 0.0);
      out[c] += h.bytes / kL;
    }
  return out;
}

void expect_cycles(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t c = 0; c < want.size(); ++c) EXPECT_NEAR(got[c], want[c], 1e-6) << "cycle " << c;
}

std::vector<std::vector<double>> zeros(int n) {
  return std::vector<std::vector<double>>(static_cast<std::size_t>(n),
                                          std::vector<double>(static_cast<std::size_t>(n), 0.0));
}

// Every pair L/2. M0: each link sends its L/2 direct; each sender offers its two other
// destinations (L/2 each) to its neighbour, scaled to the spare L/2: L/4 each; the neighbour's
// room for each is L - its own L/2 = L/2, so all is accepted. Delivered 2L.
// M1: each link forwards the L/4 parked for its far end, then sends its own remaining L/4 direct:
// 2L. The last L/4 per sender goes to its neighbour (room L). M2: the parked L/4 of 4 links: L.
// Cycle 2 (M0): the last 4 x L/4 = L.
TEST(RotorLb, UniformDeliversFiveThenOne) {
  auto d = zeros(4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (i != j) d[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = 0.5;
  expect_cycles(delivered_per_cycle(4, d), {5, 1});
}

// 0 -> 1 carries 3L. M0: 0 offers its backlog to 3 (room L): L parked at 3. M1: 3 forwards it to
// 1 (L); 0 parks another L at 2. M2: 0 sends its last L direct (cycle 0: 2L). Cycle 1, M0: 2
// forwards its L to 1.
TEST(RotorLb, HotPairRelaysOneSlotPerNeighbour) {
  auto d = zeros(4);
  d[0][1] = 3;
  expect_cycles(delivered_per_cycle(4, d), {2, 1});
}

// i -> i+1 carries 2L. M0: 3->0 and 1->2 send L direct; 0 parks L for 1 at 3, 2 parks L for 3 at
// 1 (rooms L). M1: 3 forwards to 1, 1 forwards to 3 (2L); 0 parks its last L for 1 at 2, 2 its
// last L for 3 at 0. M2: nothing to deliver on 2-3 or 0-1 (the parked bytes wait elsewhere); 3
// parks its last L for 0 at 2, 1 its last L for 2 at 0. Cycle 0: 4L. Cycle 1: M0 delivers 0->3
// and 2->1 (2L), M1 0->2 and 2->0 (2L).
TEST(RotorLb, RingDeliversFourAndFour) {
  auto d = zeros(4);
  for (int i = 0; i < 4; ++i)
    d[static_cast<std::size_t>(i)][static_cast<std::size_t>((i + 1) % 4)] = 2;
  expect_cycles(delivered_per_cycle(4, d), {4, 4});
}

// 2 x (i -> i+1) + 1 x (i -> i+2). M0: 3->0 and 1->2 send L direct (full). 0 offers (1: 2L, 2: L)
// to 3, but 3 holds L of its own for 1: room 0 for 1, so the spare L all goes to 0's L for 2;
// likewise 2 parks its L for 0 at 1. M1: 1->3, 3->1 send L direct; 0 parks L for 1 at 2, 2 parks
// L for 3 at 0. M2: 3 and 1 forward what they hold (2L) and 2->3, 0->1 send L direct (2L).
// Cycle 0: 2 + 2 + 4 = 8L. Cycle 1, M0: 0->3 and 2->1 forward, 3->0 and 1->2 send direct: 4L.
TEST(RotorLb, SumOfPermutationsRespectsTheReceiversOwnBacklog) {
  auto d = zeros(4);
  for (int i = 0; i < 4; ++i) {
    d[static_cast<std::size_t>(i)][static_cast<std::size_t>((i + 1) % 4)] = 2;
    d[static_cast<std::size_t>(i)][static_cast<std::size_t>((i + 2) % 4)] = 1;
  }
  expect_cycles(delivered_per_cycle(4, d), {8, 4});
}

// n = 8: 0->1 2L, 2->1 L, 3->5 L, 6->4 1.5L, 7->1 L/2.
// M0: no direct pair. 0 offers 2L for 1 to 7, whose room for 1 is L - its own L/2: L/2 parked.
// 6 parks L for 4 at 1, 2 parks L for 1 at 5, 3 parks L for 5 at 4.
// M1: 7->1 forwards 0's L/2 and sends its own L/2; 4->5 forwards L (2L). 0 parks L for 1 at 2,
// 6 its last L/2 for 4 at 3. M2: nothing delivered; 0 parks its last L/2 for 1 at 4.
// M3: 5->1 forwards L. M4: nothing. M5: 2->1 forwards L. M6: 1->4 forwards L, 4->1 L/2.
// Cycle 0: 2 + 1 + 1 + 1.5 = 5.5L. Cycle 1, M0: 3->4 forwards the last L/2.
TEST(RotorLb, SparseEightNodesFinishesInTwoCycles) {
  auto d = zeros(8);
  d[0][1] = 2;
  d[2][1] = 1;
  d[3][5] = 1;
  d[6][4] = 1.5;
  d[7][1] = 0.5;
  expect_cycles(delivered_per_cycle(8, d), {5.5, 0.5});
}

// A grant or fair share minus what was already sent can leave a rounding residue below the
// precision of a large queued message (2^-29 B against 22.6 MB here). Sending it moved nothing,
// so it was offered again after every 1 ps hop until the window closed: the context-parallel
// example at τ = 10 µs recorded tens of millions of hops and ran out of memory. Now it needs a
// few per message.
TEST(RotorLb, RoundingResiduesAreNotSentOneHopAtATime) {
  const std::string examples = std::string(FLUX_TEST_DATA_DIR) + "/../../examples/";
  const workload::Workload w = workload::build_workload(
      workload::read_scenario(examples + "llama3-8b-8l-8gpu-tp2-cp2-dp2-32k.json"));
  const fabric::Fabric f = make_fabric(w.gpus, 2, 1e-5, {.rate = 1e11});
  const fabric::SimResult r = simulate(w, f, "rotornet-vlb");
  testing::expect_complete_run(w, f, r);
  std::size_t hops = 0, sends = 0;
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    hops += r.trace.hops[t].size();
    sends += w.tasks[t].kind == workload::TaskKind::send;
  }
  EXPECT_LT(hops, 20 * sends);
}

}  // namespace
}  // namespace flux::schedulers
