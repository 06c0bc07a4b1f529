#include "fabric/nic_buffer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>

#include "core/rng.hpp"
#include "fabric/replay.hpp"
#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/sim_checks.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

using testing::kLinkRate;  // 800 Gb/s: the default NIC window is 100 KB
using testing::make_fabric;
using testing::WorkloadBuilder;

// A hand-built run: sends without dependencies, their ready times and hops set directly.
struct HandRun {
  workload::Workload w;
  fabric::Trace trace;
  fabric::Time end = 0;
};

HandRun hand_run(const workload::Workload& w) {
  HandRun r{w, {}, 0};
  r.trace.ready.assign(w.tasks.size(), 0);
  r.trace.hops = fabric::HopLists(w.tasks.size());
  return r;
}

void add_hop(HandRun& r, int task, int from, int to, fabric::Time start, fabric::Time end,
             double bytes) {
  r.trace.hops.add(static_cast<std::size_t>(task), {0, from, to, start, end, bytes});
  r.trace.hops.seal();
  r.end = std::max(r.end, end);
}

// ---- the definition, evaluated directly at one instant ----------------------------------------
// `left` evaluates the limit from the left (intervals (a, b]) instead of the value at t ([a, b)).
struct Point {
  double nic = 0, wait = 0, hbm = 0, eager = 0;
};

double share(const fabric::Hop& h, double t) {  // bytes of h that have crossed by time t
  if (h.end == h.start) return 0.0;             // zero-length hops are handled by `after`
  const double f = (t - static_cast<double>(h.start)) / static_cast<double>(h.end - h.start);
  return h.bytes * std::clamp(f, 0.0, 1.0);
}

bool after(double t, double at, bool left) {  // t ≥ at, or t > at for the left limit
  return left ? t > at : t >= at;
}

double sent(const fabric::Hop& h, double t, bool left) {
  return h.end == h.start ? (after(t, static_cast<double>(h.start), left) ? h.bytes : 0.0)
                          : share(h, t);
}

double post_time(const workload::Task& task, std::span<const fabric::Hop> hops, double ready,
                 fabric::Posting p) {
  if (p == fabric::Posting::ready) return ready;
  double first = INFINITY;
  for (const fabric::Hop& h : hops)
    if (h.from == task.src) first = std::min(first, static_cast<double>(h.start));
  return std::isfinite(first) ? std::max(first, ready) : ready;
}

Point evaluate(const HandRun& r, const fabric::BufferModel& m, int g, double t, bool left) {
  Point p;
  for (std::size_t i = 0; i < r.w.tasks.size(); ++i) {
    const workload::Task& task = r.w.tasks[i];
    const auto& hops = r.trace.hops[i];
    const double ready = static_cast<double>(r.trace.ready[i]);
    const double post = post_time(task, hops, ready, m.posting);
    if (g == task.src) {
      double remaining = task.bytes;
      bool on_wire = false;
      for (const fabric::Hop& h : hops) {
        if (h.from != g) continue;
        remaining -= sent(h, t, left);
        on_wire = on_wire || (after(t, static_cast<double>(h.start), left) &&
                              !after(t, static_cast<double>(h.end), left));
      }
      if (after(t, ready, left) && !after(t, post, left)) p.hbm += task.bytes;
      if (after(t, post, left)) {
        p.nic += on_wire ? std::min(remaining, m.window) : remaining;
        if (!on_wire) p.wait += remaining;
      }
      if (after(t, ready, left)) p.eager += remaining;
    }
    for (const fabric::Hop& h : hops) {  // relayed bytes, in full
      double held = 0;
      if (h.to == g && h.to != task.dst) {
        held += sent(h, t, left);
        if (after(t, static_cast<double>(h.end), left)) p.wait += h.bytes;
      }
      if (h.from == g && g != task.src) {
        held -= sent(h, t, left);
        if (after(t, static_cast<double>(h.start), left)) p.wait -= h.bytes;
      }
      p.nic += held;
      p.eager += held;
    }
  }
  return p;
}

// Instants where some message's remaining bytes cross W while it is on the wire, found by
// bisection on the direct evaluation: the sweep's own breakpoints are not trusted here.
std::vector<double> window_cuts(const HandRun& r, const fabric::BufferModel& m,
                                const std::vector<double>& times) {
  std::vector<double> cuts;
  for (std::size_t i = 0; i < r.w.tasks.size(); ++i) {
    const workload::Task& task = r.w.tasks[i];
    auto remaining = [&](double t) {
      double rem = task.bytes;
      for (const fabric::Hop& h : r.trace.hops[i])
        if (h.from == task.src) rem -= sent(h, t, false);
      return rem;
    };
    for (std::size_t k = 0; k + 1 < times.size(); ++k) {
      double lo = times[k], hi = times[k + 1];
      if (!(remaining(lo) > m.window && remaining(hi) < m.window)) continue;
      for (int it = 0; it < 200 && hi - lo > 1e-6; ++it)
        (remaining(0.5 * (lo + hi)) > m.window ? lo : hi) = 0.5 * (lo + hi);
      cuts.push_back(0.5 * (lo + hi));
    }
  }
  return cuts;
}

fabric::BufferStats naive(const HandRun& r, const fabric::BufferModel& m) {
  std::vector<double> times{0.0, static_cast<double>(r.end)};
  for (std::size_t i = 0; i < r.w.tasks.size(); ++i) {
    const double ready = static_cast<double>(r.trace.ready[i]);
    times.push_back(ready);
    times.push_back(post_time(r.w.tasks[i], r.trace.hops[i], ready, m.posting));
    for (const fabric::Hop& h : r.trace.hops[i]) {
      times.push_back(static_cast<double>(h.start));
      times.push_back(static_cast<double>(h.end));
    }
  }
  std::sort(times.begin(), times.end());
  for (double c : window_cuts(r, m, times)) times.push_back(c);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  fabric::BufferStats s;
  double integral = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    double total_left = 0, total_right = 0;
    for (int g = 0; g < r.w.gpus; ++g) {
      for (bool left : {true, false}) {
        const Point p = evaluate(r, m, g, times[k], left);
        s.peak = std::max(s.peak, p.nic);
        s.peak_waiting = std::max(s.peak_waiting, p.wait);
        s.peak_hbm = std::max(s.peak_hbm, p.hbm);
        s.peak_eager = std::max(s.peak_eager, p.eager);
        (left ? total_left : total_right) += p.nic;
      }
      if (k + 1 < times.size())  // exact for a curve linear between breakpoints
        integral +=
            0.5 *
            (evaluate(r, m, g, times[k], false).nic + evaluate(r, m, g, times[k + 1], true).nic) *
            (times[k + 1] - times[k]);
    }
    s.peak_total = std::max({s.peak_total, total_left, total_right});
  }
  s.mean = integral / (static_cast<double>(r.end) * r.w.gpus);
  return s;
}

void expect_same(const fabric::BufferStats& a, const fabric::BufferStats& b, double scale) {
  const double tol = 1e-6 * scale;
  EXPECT_NEAR(a.peak, b.peak, tol);
  EXPECT_NEAR(a.mean, b.mean, tol);
  EXPECT_NEAR(a.peak_total, b.peak_total, tol);
  EXPECT_NEAR(a.peak_waiting, b.peak_waiting, tol);
  EXPECT_NEAR(a.peak_hbm, b.peak_hbm, tol);
  EXPECT_NEAR(a.peak_eager, b.peak_eager, tol);
}

// Random small schedules mixing atomic, split (some pieces concurrent), relayed and zero-byte
// messages; the sweep must agree with the definition sampled at every breakpoint.
HandRun random_run(std::uint64_t seed) {
  Rng rng(seed);
  const int gpus = 4;
  WorkloadBuilder b(gpus);
  const int sends = 3 + static_cast<int>(rng.below(5));
  std::vector<int> kind;
  for (int i = 0; i < sends; ++i) {
    const int src = static_cast<int>(rng.below(gpus));
    const int dst = (src + 1 + static_cast<int>(rng.below(gpus - 1))) % gpus;
    kind.push_back(static_cast<int>(rng.below(4)));
    b.send(src, dst, kind.back() == 3 ? 0.0 : std::floor(rng.uniform(1e4, 1e6)));
  }
  HandRun r = hand_run(b.w);
  for (int i = 0; i < sends; ++i) {
    const workload::Task& t = r.w.tasks[static_cast<std::size_t>(i)];
    const fabric::Time ready = static_cast<fabric::Time>(rng.below(1000000));
    r.trace.ready[static_cast<std::size_t>(i)] = ready;
    const bool waits = rng.below(2) == 1;
    const fabric::Time at = ready + (waits ? static_cast<fabric::Time>(rng.below(500000)) : 0);
    auto span = [&] { return 1 + static_cast<fabric::Time>(rng.below(400000)); };
    if (kind[static_cast<std::size_t>(i)] == 0) {  // atomic
      add_hop(r, i, t.src, t.dst, at, at + span(), t.bytes);
    } else if (kind[static_cast<std::size_t>(i)] == 1) {  // three pieces, the last two concurrent
      const fabric::Time a = at + span(), gap = a + static_cast<fabric::Time>(rng.below(300000));
      add_hop(r, i, t.src, t.dst, at, a, 0.5 * t.bytes);
      add_hop(r, i, t.src, t.dst, gap, gap + span(), 0.25 * t.bytes);
      add_hop(r, i, t.src, t.dst, gap + 7, gap + 7 + span(), 0.25 * t.bytes);
    } else if (kind[static_cast<std::size_t>(i)] == 2) {  // half direct, half via a relay
      const int mid = (t.dst + 1) % gpus == t.src ? (t.dst + 2) % gpus : (t.dst + 1) % gpus;
      const fabric::Time a = at + span(), fwd = a + static_cast<fabric::Time>(rng.below(300000));
      add_hop(r, i, t.src, mid, at, a, 0.5 * t.bytes);
      add_hop(r, i, t.src, t.dst, a, a + span(), 0.5 * t.bytes);
      add_hop(r, i, mid, t.dst, fwd, fwd + span(), 0.5 * t.bytes);
    } else {  // a zero-byte send still takes its (empty) hop
      add_hop(r, i, t.src, t.dst, at, at, 0.0);
    }
  }
  return r;
}

TEST(NicBuffer, SweepAgreesWithTheDefinitionSampledAtEveryBreakpoint) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed)
    for (fabric::Posting posting : {fabric::Posting::ready, fabric::Posting::timetable})
      for (double window : {0.0, 2e5, 1e7}) {
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " posting " << to_string(posting) << " W " << window);
        const HandRun r = random_run(seed);
        const fabric::BufferModel m{posting, window};
        expect_same(nic_buffer(r.w, r.trace, m, r.end), naive(r, m), 1e6);
      }
}

// The series holds every breakpoint of each GPU, and at a jump the value before it too: the
// samples alone, read as linear between them, reproduce the direct value everywhere.
TEST(NicBuffer, SeriesIsExactBetweenItsSamples) {
  for (std::uint64_t seed : {7, 8, 9}) {
    const HandRun r = random_run(seed);
    const fabric::BufferModel m{fabric::Posting::ready, 2e5};
    std::vector<fabric::BufferSample> series;
    (void)nic_buffer(r.w, r.trace, m, r.end, &series);
    int jumps = 0;
    for (int g = 0; g < r.w.gpus; ++g) {
      std::vector<fabric::BufferSample> mine;
      for (const fabric::BufferSample& s : series)
        if (s.gpu == g) mine.push_back(s);
      for (std::size_t k = 0; k + 1 < mine.size(); ++k) {
        const double at = mine[k].time * fabric::kPsPerSecond;
        if (mine[k + 1].time == mine[k].time) {  // a jump: the values before and after it
          // A sample's time in seconds is within 1e-9 ps of the breakpoint: look a hair to
          // either side (the curves move less than 1e-3 B in 1e-6 ps).
          ++jumps;
          EXPECT_NEAR(mine[k].bytes, evaluate(r, m, g, at - 1e-6, false).nic, 1e-3) << "gpu " << g;
          EXPECT_NEAR(mine[k + 1].bytes, evaluate(r, m, g, at + 1e-6, false).nic, 1e-3)
              << "gpu " << g;
          continue;
        }
        const double t = 0.5 * (mine[k].time + mine[k + 1].time) * fabric::kPsPerSecond;
        EXPECT_NEAR(0.5 * (mine[k].bytes + mine[k + 1].bytes), evaluate(r, m, g, t, false).nic,
                    1e-3)
            << "gpu " << g << " at " << t;
      }
    }
    EXPECT_GT(jumps, 0) << "seed " << seed;  // the case the samples before a jump are for
  }
}

// Sweeping the breakpoints in time windows of at most `most` records (to bound memory on large
// runs), each window's pass skipping the blocks of `block` tasks and the tasks with none of its
// records, gives exactly the numbers and the series of one sweep over all of them, bit for bit.
void expect_windows_change_nothing(const HandRun& r, fabric::Posting posting,
                                   std::initializer_list<std::pair<int, int>> most_and_block) {
  fabric::BufferModel whole{posting, 2e5};
  std::vector<fabric::BufferSample> want, got;
  const fabric::BufferStats a = nic_buffer(r.w, r.trace, whole, r.end, &want);
  for (auto [most, block] : most_and_block) {
    SCOPED_TRACE(::testing::Message() << "at most " << most << " tasks per block " << block);
    fabric::BufferModel windowed = whole;
    windowed.max_records = static_cast<std::size_t>(most);
    windowed.tasks_per_block = static_cast<std::size_t>(block);
    got.clear();
    const fabric::BufferStats b = nic_buffer(r.w, r.trace, windowed, r.end, &got);
    EXPECT_EQ(a.peak, b.peak);
    EXPECT_EQ(a.mean, b.mean);
    EXPECT_EQ(a.peak_total, b.peak_total);
    EXPECT_EQ(a.peak_waiting, b.peak_waiting);
    EXPECT_EQ(a.peak_hbm, b.peak_hbm);
    EXPECT_EQ(a.peak_eager, b.peak_eager);
    ASSERT_EQ(want.size(), got.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(want[k].time, got[k].time);
      EXPECT_EQ(want[k].gpu, got[k].gpu);
      EXPECT_EQ(want[k].bytes, got[k].bytes);
      EXPECT_EQ(want[k].waiting, got[k].waiting);
      EXPECT_EQ(want[k].hbm, got[k].hbm);
    }
  }
}

TEST(NicBuffer, TimeWindowsGiveExactlyTheSameResults) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    for (fabric::Posting posting : {fabric::Posting::ready, fabric::Posting::timetable}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed);
      expect_windows_change_nothing(random_run(seed), posting,
                                    {{1, 1}, {3, 2}, {7, 64}, {3, 1}, {2, 3}});
    }
}

// A send in 150 pieces, whose records reach over every window, in the blocks of short sends that
// each fall in a few windows: a window's pass makes the long one's records again and skips the
// short ones outside it.
TEST(NicBuffer, TimeWindowsGiveTheSameResultsBesideASendOverAllOfThem) {
  WorkloadBuilder b(4);
  b.send(0, 1, 150e3);
  for (int k = 0; k < 12; ++k) b.send(1 + k % 3, k % 3 == 0 ? 0 : 3, 1e5);
  HandRun r = hand_run(b.w);
  r.trace.ready[0] = 0;
  for (fabric::Time k = 0; k < 150; ++k) add_hop(r, 0, 0, 1, 10000 * k, 10000 * k + 5000, 1e3);
  for (int k = 0; k < 12; ++k) {
    const auto i = static_cast<std::size_t>(k + 1);
    const fabric::Time at = 120000 * k + 3000;
    r.trace.ready[i] = at - 1000;
    const workload::Task& t = r.w.tasks[i];
    add_hop(r, static_cast<int>(i), t.src, t.dst, at, at + 40000, t.bytes);
  }
  for (fabric::Posting posting : {fabric::Posting::ready, fabric::Posting::timetable})
    expect_windows_change_nothing(r, posting, {{40, 64}, {100, 4}, {10, 13}, {1, 1}});
}

// ---- one test per rule ----------------------------------------------------------------------

constexpr double kBytes = 4e6;

TEST(NicBuffer, WindowDefaultsToOneMicrosecondOfLineRate) {
  const fabric::Fabric f = make_fabric(2, 1, 1e-5, {.rate = kLinkRate});
  EXPECT_DOUBLE_EQ(buffer_model(f, fabric::Posting::ready).window, 1e5);
}

// Posted when ready, the message waits for a circuit in the NIC: all of it counts.
TEST(NicBuffer, RotorNetMessageWaitingForItsCircuitCountsInFull) {
  WorkloadBuilder b(8);
  b.send(0, 1, kBytes);
  const fabric::Fabric f = make_fabric(8, 1, 1e-5, {.rate = kLinkRate});
  const fabric::SimResult r = simulate(b.w, f, "rotornet");
  testing::expect_complete_run(b.w, f, r);
  EXPECT_EQ(r.metrics.posting, fabric::Posting::ready);
  EXPECT_GT(r.trace.start[0], r.trace.ready[0]);  // it did wait
  EXPECT_DOUBLE_EQ(r.metrics.peak_waiting_bytes, kBytes);
  EXPECT_DOUBLE_EQ(r.metrics.peak_nic_buffer, kBytes);
  EXPECT_DOUBLE_EQ(r.metrics.peak_hbm_held, 0.0);
}

// The same message in a timetable (what Flux hands the hosts) stays in GPU memory until its
// planned start and then holds only W while it streams.
TEST(NicBuffer, TimetableMessageHoldsOnlyTheWindowOnTheWire) {
  WorkloadBuilder b(8);
  b.send(0, 1, kBytes);
  const double tau = 1e-5;
  const fabric::Fabric f = make_fabric(8, 1, tau, {.rate = kLinkRate});
  const fabric::CircuitSchedule s{
      "flux", {{0, 0, tau, {}}}, {{0, 0, 1, tau, 1.0}}, tau + kBytes / kLinkRate};
  const fabric::SimResult r = replay(b.w, f, s);
  ASSERT_TRUE(r.ok) << r.violations.front();
  EXPECT_EQ(r.metrics.posting, fabric::Posting::timetable);
  EXPECT_NEAR(r.metrics.peak_nic_buffer, 1e5, 1e-3);
  EXPECT_DOUBLE_EQ(r.metrics.peak_waiting_bytes, 0.0);
  EXPECT_DOUBLE_EQ(r.metrics.peak_hbm_held, kBytes);  // ready at 0, posted at τ
  EXPECT_DOUBLE_EQ(r.metrics.peak_nic_buffer_eager, kBytes);
  // Mean: W held for (bytes − W)/B, then a linear drain over W/B; over T on 8 GPUs.
  const double T = tau + kBytes / kLinkRate;
  EXPECT_NEAR(r.metrics.mean_nic_buffer,
              (1e5 * (kBytes - 1e5) / kLinkRate + 0.5 * 1e5 * 1e5 / kLinkRate) / (T * 8), 1e-3);
}

// A relay's bytes are not streamed from its own GPU memory: they count in full at the
// intermediate until forwarded.
TEST(NicBuffer, RelayedBytesCountInFullAtTheIntermediate) {
  WorkloadBuilder b(3);
  b.send(0, 2, 1e6);
  HandRun r = hand_run(b.w);
  add_hop(r, 0, 0, 1, 0, 10'000'000, 1e6);           // 10 µs to the relay
  add_hop(r, 0, 1, 2, 30'000'000, 40'000'000, 1e6);  // forwarded 20 µs later
  std::vector<fabric::BufferSample> series;
  const fabric::BufferStats s =
      nic_buffer(r.w, r.trace, {fabric::Posting::timetable, 1e5}, r.end, &series);
  EXPECT_DOUBLE_EQ(s.peak, 1e6);  // all of it at gpu 1 from 10 µs to 30 µs
  EXPECT_DOUBLE_EQ(s.peak_waiting, 1e6);
  bool relay_full = false;
  for (const fabric::BufferSample& x : series)
    relay_full |= x.gpu == 1 && std::abs(x.time - 10e-6) < 1e-15 && std::abs(x.bytes - 1e6) < 1e-3;
  EXPECT_TRUE(relay_full);
}

// Between two pieces of a split message nothing is on the wire: the rest waits in full.
TEST(NicBuffer, SplitMessageWaitsInFullBetweenPieces) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  HandRun r = hand_run(b.w);
  add_hop(r, 0, 0, 1, 0, 5'000'000, 5e5);
  add_hop(r, 0, 0, 1, 20'000'000, 25'000'000, 5e5);
  for (fabric::Posting p : {fabric::Posting::ready, fabric::Posting::timetable}) {
    const fabric::BufferStats s = nic_buffer(r.w, r.trace, {p, 1e5}, r.end);
    EXPECT_DOUBLE_EQ(s.peak, 5e5) << to_string(p);  // from 5 µs to 20 µs
    EXPECT_DOUBLE_EQ(s.peak_waiting, 5e5) << to_string(p);
    // Window only: 1e5 for the first piece, 1e5 then a drain for the second; 5e5 × 15 µs between.
    const double mean = (1e5 * 5e-6 + 5e5 * 15e-6 + 1e5 * 4e-6 + 0.5 * 1e5 * 1e-6) / (25e-6 * 2);
    EXPECT_NEAR(s.mean, mean, 1e-6) << to_string(p);
  }
}

// The metric sorts its records by the bits of their times, which order as the times do only
// from +0 up: a hop before time 0 (no schedule the checker passes has one) is refused, not
// misplaced.
TEST(NicBuffer, AHopBeforeTimeZeroIsALogicError) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  HandRun r = hand_run(b.w);
  add_hop(r, 0, 0, 1, -5'000'000, 5'000'000, 1e6);
  EXPECT_THROW((void)nic_buffer(r.w, r.trace, {fabric::Posting::ready, 1e5}, r.end),
               std::logic_error);
}

}  // namespace
}  // namespace flux::schedulers
