#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/nic_buffer.hpp"
#include "fabric_baselines/bvn_frame.hpp"
#include "fabric_baselines/rotornet.hpp"
#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

using testing::kLinkRate;
using testing::make_fabric;
using testing::random_workload;
using testing::ring_allreduce;
using testing::WorkloadBuilder;

OptionValues option(const std::string& key, OptionValue value) {
  OptionValues o;
  o.set(key, std::move(value));
  return o;
}

TEST(Static, RingAllReduceMatchesAlphaBetaFormula) {
  const int p = 4;
  const double bytes = 64e6, alpha = 2e-6, tau = 1e-5;
  workload::Workload w = ring_allreduce(p, bytes);
  fabric::Fabric f = make_fabric(p, 2, tau, {.rate = kLinkRate, .alpha = alpha});
  fabric::SimResult r =
      simulate(w, f, "static", option("topology", std::string("0-1,2-3/1-2,0-3")));
  const double expected = tau + 2 * (p - 1) * (alpha + bytes / p / kLinkRate);
  EXPECT_NEAR(r.metrics.iteration_time, expected, 1e-11);
  EXPECT_EQ(r.metrics.reconfigurations, 2 * p);  // one set-up per used port, never changed
}

TEST(Static, MissingCircuitFailsNamingTheSend) {
  WorkloadBuilder b(4);
  b.send(0, 2, 1e6);
  fabric::Fabric f = make_fabric(4, 1, 1e-5, {.rate = kLinkRate});
  try {
    (void)simulate(b.w, f, "static", option("topology", std::string("0-1,2-3")));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "topology");  // the option's key: the library names no flag
    EXPECT_NE(std::string(e.what()).find("task 0 (s0) needs gpu 0 -> gpu 2"), std::string::npos);
  }
}

TEST(Static, HeaviestTopologyCoversASingleRing) {
  workload::Workload w = ring_allreduce(4, 8e6);
  fabric::Fabric f = make_fabric(4, 2, 1e-5, {.rate = kLinkRate});
  fabric::SimResult r = simulate(w, f, "static");
  EXPECT_NEAR(r.metrics.iteration_time, 1e-5 + 6 * (2e6 / kLinkRate), 1e-11);
}

TEST(RotorNet, FirstSlotMessageTakesTauPlusTransfer) {
  WorkloadBuilder b(4);
  b.send(0, 3, 1e5);  // {0, 3} is in matching 0 (circle method: node 3 fixed, pairs with 0)
  fabric::Fabric f = make_fabric(4, 1, 1e-6, {.rate = kLinkRate});
  fabric::SimResult r = simulate(b.w, f, "rotornet");
  EXPECT_NEAR(r.metrics.iteration_time, 1e-6 + 1e5 / kLinkRate, 1e-12);
}

// A message that needs s slots of transmission waits at most one cycle for each of them.
TEST(RotorNet, WaitIsAtMostOneCyclePerSlotNeeded) {
  const int n = 8, sigma = 2;
  const double tau = 1e-6;
  fabric::Fabric f = make_fabric(n, sigma, tau, {.rate = kLinkRate});
  fabric::SchedulerOptions opt;
  const double slot = fabric::to_seconds(fabric_baselines::rotor_slot(f, opt));
  const double window_bytes = (slot - tau) * kLinkRate;
  const double cycle = std::ceil((n - 1) / double(sigma)) * slot;
  Rng rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    WorkloadBuilder b(n);
    int src = static_cast<int>(rng.below(n)), dst = static_cast<int>(rng.below(n - 1));
    if (dst >= src) ++dst;
    int c = b.compute(src, rng.uniform(0, 3 * cycle));
    double bytes = std::floor(rng.uniform(1, 5 * window_bytes));
    b.send(src, dst, bytes, {c});
    fabric::SimResult r = simulate(b.w, f, "rotornet");
    const double ready = b.w.tasks[0].duration;
    const double slots_needed = std::ceil(bytes / window_bytes);
    EXPECT_LE(r.metrics.iteration_time - ready, slots_needed * cycle + 1e-12) << trial;
    EXPECT_GE(r.metrics.iteration_time - ready, bytes / kLinkRate - 1e-12);
  }
}

// The rotor cycles every matching, but only circuits that carried a hop are recorded: each
// recorded circuit has a hop inside it, and a message waiting many idle slots adds no circuit.
TEST(RotorNet, RecordsOnlyCircuitsThatCarriedBytes) {
  WorkloadBuilder b(8);
  int c = b.compute(0, 2e-3);  // ~20 cycles of idle rotation before the first send
  b.send(0, 5, 3e6, {c});
  b.send(2, 7, 1e5);
  fabric::Fabric f = make_fabric(8, 2, 1e-6, {.rate = kLinkRate});
  for (const char* name : {"rotornet", "rotornet-vlb"}) {
    fabric::SimResult r = simulate(b.w, f, name);  // simulate() throws unless the checker passed
    ASSERT_FALSE(r.schedule.circuits.empty()) << name;
    EXPECT_LE(r.schedule.circuits.size(), r.trace.hops.hop_count()) << name;
    for (const fabric::TimedCircuit& k : r.schedule.circuits) {
      bool carried = false;
      for (const fabric::Hop& h : r.trace.hops.all())
        carried |= h.sw == k.sw && h.start >= k.up && h.end <= k.down &&
                   ((h.from == k.a && h.to == k.b) || (h.from == k.b && h.to == k.a));
      EXPECT_TRUE(carried) << name << " circuit " << k.a << "-" << k.b << " at " << k.up;
    }
  }
}

TEST(RotorNetVlb, RelaysThroughIntermediatesAndCountsTheirBuffer) {
  WorkloadBuilder b(8);
  b.send(0, 1, 4e6);
  fabric::Fabric f = make_fabric(8, 1, 1e-6, {.rate = kLinkRate});
  fabric::SimResult direct = simulate(b.w, f, "rotornet");
  fabric::SimResult vlb = simulate(b.w, f, "rotornet-vlb");
  int relayed = 0;
  for (const fabric::Hop& h : vlb.trace.hops[0]) relayed += h.from != 0;
  EXPECT_GT(relayed, 0);
  EXPECT_LT(vlb.metrics.iteration_time, direct.metrics.iteration_time);
  EXPECT_DOUBLE_EQ(vlb.metrics.bytes_delivered, 4e6);
  // Relayed bytes sit at the intermediates: the total exceeds what the source alone holds.
  EXPECT_GT(vlb.metrics.peak_nic_buffer_total, 0.0);
  EXPECT_NEAR(vlb.metrics.peak_nic_buffer, 4e6, 1.0);
}

TEST(Ideal, FairSharingOfOneSender) {
  WorkloadBuilder b(3);
  b.send(0, 1, 1e6);
  b.send(0, 2, 1e6);
  fabric::Fabric f = make_fabric(3, 2, 1e-3, {.rate = kLinkRate});
  fabric::SimResult r = simulate(b.w, f, "ideal");
  EXPECT_NEAR(r.metrics.iteration_time, 2e6 / (2 * kLinkRate), 1e-12);
  EXPECT_EQ(r.metrics.reconfigurations, 0);
}

// Max-min fairness: gpu 2's receive link is shared by three senders (1/3 each); gpu 0's send link
// then gives its other flow the remaining 2/3.
TEST(Ideal, MaxMinFairRates) {
  WorkloadBuilder b(5);
  const double bytes = 3e6, cap = 2 * kLinkRate;
  int a = b.send(0, 1, bytes);
  int others[] = {b.send(0, 2, bytes), b.send(3, 2, bytes), b.send(4, 2, bytes)};
  fabric::Fabric f = make_fabric(5, 2, 1e-3, {.rate = kLinkRate});
  fabric::SimResult r = simulate(b.w, f, "ideal");
  EXPECT_NEAR(fabric::to_seconds(r.trace.finish[a]), bytes / (2 * cap / 3), 1e-11);
  for (int t : others) EXPECT_NEAR(fabric::to_seconds(r.trace.finish[t]), bytes / (cap / 3), 1e-11);
}

// 0->1 and 2->3 are tied together by 0->3 (they share its links) until it ends: then both must
// speed up to the full link, the one on the far side of the ended send included.
TEST(Ideal, RatesRiseOnBothSidesWhenTheLinkingSendEnds) {
  WorkloadBuilder b(4);
  const double bytes = 3e6, link = 1e6, cap = 2 * kLinkRate;
  const int near = b.send(0, 1, bytes), far = b.send(2, 3, bytes), linking = b.send(0, 3, link);
  fabric::SimResult r = simulate(b.w, make_fabric(4, 2, 1e-3, {.rate = kLinkRate}), "ideal");
  const double linked = link / (cap / 2);  // all three at half a link while linked
  EXPECT_NEAR(fabric::to_seconds(r.trace.finish[linking]), linked, 1e-11);
  for (int t : {near, far})
    EXPECT_NEAR(fabric::to_seconds(r.trace.finish[t]), linked + (bytes - link) / cap, 1e-11);
  // Each send's pieces, one per rate, back to back in time order (the linking send: one).
  for (int t : {near, far, linking}) {
    const auto pieces = r.trace.hops[static_cast<std::size_t>(t)];
    ASSERT_EQ(pieces.size(), t == linking ? 1u : 2u) << t;
    for (std::size_t k = 1; k < pieces.size(); ++k) EXPECT_EQ(pieces[k].start, pieces[k - 1].end);
  }
}

// Consecutive flows of a link that share their other link (a collective's chunks between two
// GPUs) lower it together: gpu 0's send link (four flows, a quarter each) fills first, its last
// two flows both end on gpu 1's receive link, and 2->1 then gets the half they leave of it.
TEST(Ideal, ChunksOfOnePairLeaveTheRestOfTheirReceiveLink) {
  WorkloadBuilder b(4);
  const double bytes = 1e6, cap = 2 * kLinkRate;
  std::vector<int> quarter;
  for (int dst : {3, 3, 1, 1}) quarter.push_back(b.send(0, dst, bytes));
  const int half = b.send(2, 1, bytes);
  const fabric::SimResult r = simulate(b.w, make_fabric(4, 2, 1e-3, {.rate = kLinkRate}), "ideal");
  EXPECT_NEAR(fabric::to_seconds(r.trace.finish[half]), bytes / (cap / 2), 1e-11);
  for (int t : quarter)
    EXPECT_NEAR(fabric::to_seconds(r.trace.finish[t]), bytes / (cap / 4), 1e-11);
}

// A flow whose rate no event changes is one piece, however many other flows start and end
// meanwhile: 0->1 runs alone on its links while 2->3 and then 4->5 come and go.
TEST(Ideal, AFlowKeepsOnePieceWhileItsRateStays) {
  WorkloadBuilder b(6);
  const double cap = 2 * kLinkRate;
  const int lone = b.send(0, 1, 4e6);
  const int c = b.compute(2, 5e-6);
  b.send(2, 3, 1e6, {c});
  const int later = b.compute(4, 1.2e-5);
  b.send(4, 5, 1e6, {later});
  const fabric::SimResult r = simulate(b.w, make_fabric(6, 2, 1e-3, {.rate = kLinkRate}), "ideal");
  const auto pieces = r.trace.hops[static_cast<std::size_t>(lone)];
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_NEAR(pieces[0].bytes, 4e6, 1e-6);
  EXPECT_NEAR(fabric::to_seconds(r.trace.finish[lone]), 4e6 / cap, 1e-11);
}

// Sends that start at one instant are shared out once, after all of them have joined: 16 senders
// into one receiver each get a 16th of its link, and the run takes one event per send plus two
// timers (the settle at 0 and the completion at T; the run ends with the sends, before the settle
// that T asks for), not a rate recomputation and a timer per send (2 × 16 events).
TEST(Ideal, SendsStartingTogetherAreSharedOutOnce) {
  constexpr int kSenders = 16;
  WorkloadBuilder b(kSenders + 1);
  const double bytes = 1e6, cap = 2 * kLinkRate;
  for (int s = 1; s <= kSenders; ++s) b.send(s, 0, bytes);
  const fabric::SimResult r =
      simulate(b.w, make_fabric(kSenders + 1, 2, 1e-3, {.rate = kLinkRate}), "ideal");
  EXPECT_NEAR(r.metrics.iteration_time, kSenders * bytes / cap, 1e-11);
  for (int t = 0; t < kSenders; ++t)
    EXPECT_EQ(r.trace.hops[static_cast<std::size_t>(t)].size(), 1u);
  EXPECT_EQ(r.metrics.events, kSenders + 2);
}

TEST(Bvn, OneShotAndPeriodicDeliverEverything) {
  workload::Workload w = random_workload(11, 6, 24, 0.25, {.bytes = 1e6, .seconds = 1e-5});
  fabric::Fabric f = make_fabric(6, 2, 1e-6, {.rate = kLinkRate});
  fabric::SimResult one = simulate(w, f, "bvn");
  fabric::SimResult periodic = simulate(w, f, "bvn", option("frame", 2e-4));
  EXPECT_NEAR(one.metrics.bytes_delivered, one.metrics.bytes_injected, 1e-3);
  EXPECT_NEAR(periodic.metrics.bytes_delivered, periodic.metrics.bytes_injected, 1e-3);
  EXPECT_THROW((void)simulate(w, f, "bvn", option("frame", 1e-7)), InputError);
}

// The circuits of `s` that a hop ran on while they were up.
std::vector<fabric::TimedCircuit> carrying_circuits(const fabric::TimedSchedule& s) {
  std::map<std::tuple<int, int, int>, std::vector<const fabric::Hop*>> on;  // (sw, a < b)
  for (const fabric::Hop& h : s.hops.all())
    on[{h.sw, std::min(h.from, h.to), std::max(h.from, h.to)}].push_back(&h);
  std::vector<fabric::TimedCircuit> carrying;
  for (const fabric::TimedCircuit& c : s.circuits) {
    const auto it = on.find({c.sw, std::min(c.a, c.b), std::max(c.a, c.b)});
    if (it != on.end() && std::any_of(it->second.begin(), it->second.end(), [&](const auto* h) {
          return h->start >= c.up && h->end <= c.down;
        }))
      carrying.push_back(c);
  }
  return carrying;
}

std::vector<std::tuple<fabric::Time, fabric::Time, int, int, int>> sorted(
    const std::vector<fabric::TimedCircuit>& circuits) {
  std::vector<std::tuple<fabric::Time, fabric::Time, int, int, int>> v;
  for (const fabric::TimedCircuit& c : circuits) v.emplace_back(c.up, c.down, c.sw, c.a, c.b);
  std::sort(v.begin(), v.end());
  return v;
}

// A periodic frame repeated over a long compute keeps a circuit record per circuit of every
// window. A run that writes only its summary keeps them in memory (a far higher cap) until the
// replay has checked and counted them. Past what the three circuit files may hold, the run is
// played again recording only the circuits that carried a hop: the same hops, and exactly the
// records of the complete list that carried one.
TEST(BvnPeriodic, PastTheRecordCapOnlyTheCircuitsThatCarriedBytesAreKept) {
  // An all-to-all among 16 GPUs (a frame of 15 matchings of 8 circuits), then 2 ms of compute
  // before a last send: ~20,000 frames of 120 records each.
  WorkloadBuilder b(16);
  std::vector<int> all;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      if (i != j) all.push_back(b.send(i, j, 1e3));
  const int wait = b.compute(1, 2e-3, all);
  b.send(0, 1, 1e3, {wait});
  const fabric::Fabric f = make_fabric(16, 1, 1e-9, {.rate = kLinkRate});
  fabric::SchedulerOptions periodic;
  periodic.frame = 100e-9;  // 100 τ, the default
  periodic.outputs = fabric::CircuitOutputs::among({"summary.json"});
  const fabric::ScheduleRun every = fabric_baselines::schedule_bvn(b.w, f, periodic);
  periodic.outputs = fabric::CircuitOutputs{};  // every file
  const fabric::ScheduleRun used = fabric_baselines::schedule_bvn(b.w, f, periodic);
  ASSERT_GT(every.schedule.circuits.size(), fabric::max_circuit_records(periodic.outputs));
  EXPECT_FALSE(every.schedule.used_circuits_only);
  EXPECT_TRUE(used.schedule.used_circuits_only);
  EXPECT_EQ(used.schedule.iteration_time, every.schedule.iteration_time);
  ASSERT_EQ(used.schedule.hops.hop_count(), every.schedule.hops.hop_count());
  for (std::size_t i = 0; i < b.w.tasks.size(); ++i) {
    const auto x = used.schedule.hops[i], y = every.schedule.hops[i];
    ASSERT_EQ(x.size(), y.size()) << "task " << i;
    for (std::size_t k = 0; k < x.size(); ++k)
      EXPECT_TRUE(x[k].sw == y[k].sw && x[k].from == y[k].from && x[k].to == y[k].to &&
                  x[k].start == y[k].start && x[k].end == y[k].end && x[k].bytes == y[k].bytes)
          << "task " << i << " hop " << k;
  }
  const std::vector<fabric::TimedCircuit> carrying = carrying_circuits(every.schedule);
  EXPECT_LT(carrying.size(), 1000u);
  EXPECT_EQ(sorted(used.schedule.circuits), sorted(carrying));

  // Through the registry: the summary-only run counts every record, the run writing every file
  // the circuits in use, and both schedules pass the checker (run_scheduler replays them).
  const WorkloadScheduler& bvn = workload_scheduler("bvn-periodic");
  const OptionValues frame = option("bvn_frame", std::string("100tau"));
  const fabric::CircuitOutputs summary_only = fabric::CircuitOutputs::among({"summary.json"});
  const SchedulerResult r =
      run_scheduler(bvn, {b.w, f, "w.json", nullptr, "f.json", no_progress(), summary_only}, frame);
  EXPECT_GT(r.sim.metrics.reconfigurations,
            static_cast<std::int64_t>(fabric::max_circuit_records()));
  EXPECT_TRUE(r.sim.schedule.circuits.empty());  // dropped: no file lists them
  EXPECT_NEAR(r.sim.metrics.bytes_delivered, 241e3, 1e-6);
  const SchedulerResult files = run_scheduler(bvn, {b.w, f, "w.json", nullptr, "f.json"}, frame);
  EXPECT_TRUE(files.sim.schedule.used_circuits_only);
  EXPECT_EQ(files.sim.schedule.circuits.size(), carrying.size());
  EXPECT_LT(files.sim.metrics.reconfigurations, r.sim.metrics.reconfigurations);
  EXPECT_EQ(files.sim.metrics.iteration_time, r.sim.metrics.iteration_time);
}

struct Case {
  std::string scheduler;
  fabric::CircuitKind kind;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.scheduler << (c.kind == fabric::CircuitKind::duplex ? " duplex" : " simplex");
}

// Every registered scheduler on both circuit kinds: a scheduler added to the registry is tested
// here without touching this file.
std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (const WorkloadScheduler& s : workload_schedulers())
    for (fabric::CircuitKind kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
      if (!s.electrical || kind == fabric::CircuitKind::duplex) cases.push_back({s.name, kind});
  return cases;
}

class EveryScheduler : public ::testing::TestWithParam<Case> {};

// Bytes injected = bytes delivered, every buffer drains to zero, the run is reproducible and its
// schedule survives the file format and an independent replay. The workload is a ring: every
// scheduler can serve it, the static topology included.
TEST_P(EveryScheduler, ConservesBytesDrainsBuffersAndReplays) {
  const Case c = GetParam();
  workload::Workload w = ring_allreduce(6, 3e6);
  fabric::Fabric f = make_fabric(6, 2, 2e-6, {.rate = kLinkRate, .alpha = 1e-7, .kind = c.kind});
  fabric::SimResult r = simulate(w, f, c.scheduler);  // checked; replayed independently below
  EXPECT_NEAR(r.metrics.bytes_delivered, r.metrics.bytes_injected, 1e-3);
  EXPECT_GT(r.metrics.bytes_injected, 0.0);
  EXPECT_GE(r.metrics.iteration_time, r.metrics.lower_bound - 1e-12);
  EXPECT_GE(r.metrics.peak_nic_buffer_total, r.metrics.peak_nic_buffer);
  EXPECT_GE(r.metrics.peak_nic_buffer, r.metrics.peak_waiting_bytes - 1e-6);
  std::vector<fabric::BufferSample> series;
  (void)nic_buffer(w, r.trace, buffer_model(f, r.schedule.posting), r.schedule.iteration_time,
                   &series);
  std::vector<double> last(6, -1);
  for (const fabric::BufferSample& s : series) last[static_cast<std::size_t>(s.gpu)] = s.bytes;
  for (double v : last) EXPECT_NEAR(v, 0.0, 1e-3);

  fabric::SimResult again = simulate(w, f, c.scheduler);
  const std::string text =
      circuit_schedule_to_json(to_circuit_schedule(r.schedule, r.trace.hops, w, f));
  EXPECT_EQ(text,
            circuit_schedule_to_json(to_circuit_schedule(again.schedule, again.trace.hops, w, f)));
  if (workload_scheduler(c.scheduler).electrical) return;
  fabric::SimResult replayed = replay(w, f, parse_circuit_schedule(text, "s.json", f));
  ASSERT_TRUE(replayed.ok) << replayed.violations.front();
  EXPECT_DOUBLE_EQ(replayed.metrics.iteration_time, r.metrics.iteration_time);
  // The replayed file is a timetable: its hosts post each message at its start, so its NIC holds
  // no more than when the same hops were posted as each message became ready.
  // flux and flux-greedy hand the hosts a timetable themselves; the others decide online.
  const bool timetable = c.scheduler == "flux" || c.scheduler == "flux-greedy";
  EXPECT_EQ(r.metrics.posting, timetable ? fabric::Posting::timetable : fabric::Posting::ready);
  EXPECT_EQ(replayed.metrics.posting, fabric::Posting::timetable);
  EXPECT_DOUBLE_EQ(replayed.metrics.peak_nic_buffer_eager, r.metrics.peak_nic_buffer_eager);
  EXPECT_LE(replayed.metrics.peak_nic_buffer, r.metrics.peak_nic_buffer + 1e-6);
  EXPECT_GE(replayed.metrics.peak_nic_buffer_eager, replayed.metrics.peak_nic_buffer - 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryScheduler, ::testing::ValuesIn(every_case()),
                         [](const auto& info) {
                           std::string name =
                               info.param.scheduler +
                               (info.param.kind == fabric::CircuitKind::duplex ? "_duplex"
                                                                               : "_simplex");
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A zero-byte send still needs its circuit; every scheduler must still deliver it.
TEST(Simulate, ZeroByteSendsCompleteUnderEveryScheduler) {
  WorkloadBuilder b(4);
  int c = b.compute(1, 1e-5);
  const int zero = b.send(1, 3, 0.0, {c});
  b.send(0, 2, 1e6);
  fabric::Fabric f = make_fabric(4, 1, 1e-6, {.rate = kLinkRate, .alpha = 1e-7});
  for (const WorkloadScheduler& s : workload_schedulers()) {
    fabric::SimResult r = simulate(b.w, f, s.name);
    // Delivered after the compute it waits for (plus α), inside the iteration.
    EXPECT_GE(fabric::to_seconds(r.trace.finish[zero]), 1e-5 + 1e-7 - 1e-12) << s.name;
    EXPECT_LE(r.trace.finish[zero], r.schedule.iteration_time) << s.name;
    EXPECT_GE(r.metrics.iteration_time, 1e-5 + 1e-7 - 1e-12) << s.name;
  }
}

TEST(Simulate, BadInputIsInputError) {
  workload::Workload w = random_workload(1, 4, 4, 0.25, {.bytes = 1e6, .seconds = 1e-5});
  fabric::Fabric f = make_fabric(4, 1, 1e-6, {.rate = kLinkRate});
  EXPECT_THROW((void)simulate(w, f, "nonsense"), InputError);
  EXPECT_THROW((void)simulate(w, make_fabric(5, 1, 1e-6, {.rate = kLinkRate}), "rotornet"),
               InputError);
  EXPECT_THROW((void)simulate(w, f, "rotornet", option("duty_cycle", 1.0)), InputError);
  EXPECT_THROW((void)simulate(w, make_fabric(4, 1, 0.0, {.rate = kLinkRate}), "rotornet"),
               InputError);
  // Up-time shorter than α: no message could ever progress.
  EXPECT_THROW((void)simulate(w, make_fabric(4, 1, 1e-5, {.rate = kLinkRate, .alpha = 1e-6}),
                              "rotornet", option("slot", 10.5e-6)),
               InputError);
  EXPECT_THROW(
      (void)simulate(w, f, "spectra-phase", option("phase_algorithm", std::string("nope"))),
      InputError);
  EXPECT_THROW((void)simulate(w, f, "static", option("topology", std::string("0-1,1-2"))),
               InputError);
}

}  // namespace
}  // namespace flux::schedulers
