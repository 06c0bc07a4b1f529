#include "matrix/verify.hpp"

#include <gtest/gtest.h>

#include "core/rng.hpp"

namespace flux::matrix {
namespace {

// D = [[0, 0.3], [0.2, 0]] served by one slot of the swap permutation on each of two switches.
Matrix small_demand() {
  Matrix d(2);
  d(0, 1) = 0.3;
  d(1, 0) = 0.2;
  return d;
}

MatrixSchedule small_schedule() {
  MatrixSchedule s;
  s.algorithm = "hand";
  s.n = 2;
  s.switches = 2;
  s.delta = 0.01;
  s.slots = {{0, 0.01, 0.16, {1, 0}}, {1, 0.01, 0.16, {1, 0}}};
  s.makespan = 0.16;
  return s;
}

bool mentions(const VerifyReport& r, ViolationKind kind, const std::string& text) {
  for (const Violation& v : r.violations())
    if (v.kind == kind && v.message.find(text) != std::string::npos) return true;
  return false;
}

TEST(Verify, AcceptsValidSchedule) {
  const VerifyReport r = verify_matrix_schedule(small_demand(), small_schedule());
  EXPECT_TRUE(r.valid()) << r.to_text();
}

TEST(Verify, ReportsShortCoverageWithAmount) {
  MatrixSchedule s = small_schedule();
  s.slots[1].end = 0.11;  // entry (0, 1) now gets 0.15 + 0.10 = 0.25 < 0.3
  s.makespan = 0.16;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_EQ(r.count(ViolationKind::coverage), 1);
  EXPECT_TRUE(mentions(r, ViolationKind::coverage, "entry (0, 1): demand 0.3 but served 0.25"))
      << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::coverage, "short by 0.05")) << r.to_text();
}

TEST(Verify, ReportsInvalidPermutations) {
  MatrixSchedule s = small_schedule();
  s.slots[0].perm = {1, 1};
  s.slots[1].perm = {0, 2};
  s.slots.push_back({0, 0.2, 0.3, {0}});
  s.makespan = 0.3;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_TRUE(mentions(r, ViolationKind::permutation,
                       "slot 0 (switch 0, [0.01, 0.16)): output 1 "
                       "used by inputs 0 and 1"))
      << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::permutation, "perm[1] = 2 is outside [-1, 2)"));
  EXPECT_TRUE(mentions(r, ViolationKind::permutation, "perm has 1 entries, expected n = 2"));
  EXPECT_EQ(r.count(ViolationKind::permutation), 3);
}

TEST(Verify, ReportsReconfigurationGapsAndOverlap) {
  MatrixSchedule s = small_schedule();
  s.slots[1].start = 0.004;                      // first slot before delta on switch 1
  s.slots.push_back({0, 0.165, 0.2, {0, 1}});    // 0.005 after slot 0 on switch 0
  s.slots.push_back({0, 0.19, 0.25, {-1, -1}});  // overlaps the previous one
  s.makespan = 0.25;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_TRUE(mentions(r, ViolationKind::gap, "switch 1: slot 1 starts at 0.004")) << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::gap, "switch 0: slot 2 starts 0.005")) << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::overlap, "switch 0: slot 3 [0.19, 0.25) overlaps slot 2"))
      << r.to_text();
  EXPECT_EQ(r.total(), 3) << r.to_text();
}

TEST(Verify, OverlapWithEarlierLongSlotIsFound) {
  MatrixSchedule s = small_schedule();
  s.delta = 0.0;
  s.slots[0].end = 1.0;  // covers the next two slots on switch 0
  s.slots.push_back({0, 0.2, 0.3, {1, 0}});
  s.slots.push_back({0, 0.4, 0.5, {1, 0}});
  s.makespan = 1.0;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_EQ(r.count(ViolationKind::overlap), 2) << r.to_text();
}

TEST(Verify, ReportsHeaderAndMakespanProblems) {
  MatrixSchedule s = small_schedule();
  s.n = 3;
  s.makespan = 0.2;
  s.slots[0].sw = 5;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_TRUE(mentions(r, ViolationKind::header, "schedule n = 3 but the demand matrix has n = 2"));
  EXPECT_TRUE(mentions(r, ViolationKind::makespan, "makespan is 0.2 but the latest end is 0.16"));
  EXPECT_TRUE(mentions(r, ViolationKind::timing, "switch 5 is outside [0, 2)"));
  EXPECT_TRUE(mentions(r, ViolationKind::permutation, "expected n = 3"));
}

TEST(Verify, BoundAboveMakespanIsReported) {
  MatrixSchedule s = small_schedule();
  s.lower_bound = 0.16;  // equal: fine (the schedule is optimal)
  EXPECT_TRUE(verify_matrix_schedule(small_demand(), s).valid());
  s.lower_bound = 0.2;
  const VerifyReport r = verify_matrix_schedule(small_demand(), s);
  EXPECT_EQ(r.total(), 1);
  EXPECT_TRUE(mentions(r, ViolationKind::bound, "lower_bound 0.2 exceeds the makespan 0.16"));
}

TEST(Verify, UsesRateForByteDemand) {
  Matrix d = small_demand().scaled(1e9);  // bytes
  MatrixSchedule s = small_schedule();
  s.rate = 1e9;  // 0.15 s per switch at 1 GB/s covers 0.3 GB
  EXPECT_TRUE(verify_matrix_schedule(d, s).valid());
  s.rate = 0.9e9;
  EXPECT_EQ(verify_matrix_schedule(d, s).count(ViolationKind::coverage), 1);
}

TEST(Verify, EmptyScheduleCoversZeroDemand) {
  MatrixSchedule s;
  s.n = 3;
  EXPECT_TRUE(verify_matrix_schedule(Matrix(3), s).valid());
  Matrix d(3);
  d(2, 2) = 1e-3;  // diagonal entries are ordinary entries
  EXPECT_TRUE(mentions(verify_matrix_schedule(d, s), ViolationKind::coverage, "entry (2, 2)"));
}

MatrixSchedule per_port() {
  MatrixSchedule s;
  s.n = 3;
  s.switches = 1;
  s.delta = 0.1;
  s.reconfiguration = Reconfiguration::per_port;
  s.circuits = {{0, 0, 1, 0.1, 0.5},
                {0, 1, 2, 0.1, 0.5},
                {0, 0, 1, 0.5, 0.7},  // kept: no gap
                {0, 0, 2, 0.8, 1.0}};
  s.makespan = 1.0;
  return s;
}

TEST(Verify, PerPortAcceptsReuseAndGaps) {
  Matrix d(3);
  d(0, 1) = 0.6;
  d(1, 2) = 0.4;
  d(0, 2) = 0.2;
  const VerifyReport r = verify_matrix_schedule(d, per_port());
  EXPECT_TRUE(r.valid()) << r.to_text();
}

TEST(Verify, PerPortReportsConflictsOnBothSides) {
  MatrixSchedule s = per_port();
  s.circuits.push_back({0, 2, 2, 0.3, 0.4});   // RX port 2 busy with 1 -> 2
  s.circuits.push_back({0, 0, 0, 0.2, 0.3});   // TX port 0 busy with 0 -> 1
  s.circuits[3].start = 0.75;                  // only 0.05 after 0 -> 1 ends on TX port 0
  s.circuits.push_back({0, 1, 0, 0.0, 0.05});  // before the first reconfiguration
  const VerifyReport r = verify_matrix_schedule(Matrix(3), s);
  EXPECT_TRUE(mentions(r, ViolationKind::overlap, "switch 0 RX port 2: circuit 4 (2 -> 2)"))
      << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::overlap, "switch 0 TX port 0: circuit 5 (0 -> 0)"))
      << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::gap, "switch 0 TX port 0: circuit 3 (0 -> 2) starts 0.05"))
      << r.to_text();
  EXPECT_TRUE(mentions(r, ViolationKind::gap, "switch 0 TX port 1: circuit 6 (1 -> 0) starts at 0"))
      << r.to_text();
}

TEST(Verify, HugeSwitchCountCostsNothing) {
  MatrixSchedule s = per_port();
  s.switches = 1 << 20;  // what the reader accepts; only used switches may cost memory
  s.circuits[3].sw = (1 << 20) - 1;
  EXPECT_TRUE(verify_matrix_schedule(Matrix(3), s).valid());
  MatrixSchedule a = small_schedule();
  a.switches = 1 << 20;
  EXPECT_TRUE(verify_matrix_schedule(small_demand(), a).valid());
}

TEST(Verify, CapsMessagesButCountsAll) {
  Matrix d(40, 1.0);
  MatrixSchedule s;
  s.n = 40;
  const VerifyReport r = verify_matrix_schedule(d, s, {.max_messages_per_kind = 5});
  EXPECT_EQ(r.count(ViolationKind::coverage), 1600);
  EXPECT_EQ(r.violations().size(), 5u);
  EXPECT_EQ(r.omitted(), 1595);
  EXPECT_NE(r.to_text().find("and 1595 more"), std::string::npos);
}

// Random valid schedules: slots back to back with gap delta, demand = what they serve (scaled
// down a little). Valid as built; shortening any one slot that serves demand breaks coverage.
TEST(Verify, RandomSchedulesValidThenBroken) {
  Rng rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 2 + static_cast<int>(rng.below(6));
    MatrixSchedule s;
    s.n = n;
    s.switches = 1 + static_cast<int>(rng.below(3));
    s.delta = rng.uniform(0.0, 0.1);
    Matrix served(n);
    std::vector<double> t(static_cast<std::size_t>(s.switches), 0.0);
    for (int k = 0; k < 8; ++k) {
      const int sw = static_cast<int>(rng.below(static_cast<std::uint64_t>(s.switches)));
      double& now = t[static_cast<std::size_t>(sw)];
      const double dur = rng.uniform(0.01, 1.0);
      s.slots.push_back({sw, now + s.delta, now + s.delta + dur, rng.permutation(n)});
      now += s.delta + dur;
      for (int i = 0; i < n; ++i)
        served(i, s.slots.back().perm[static_cast<std::size_t>(i)]) += dur;
    }
    s.makespan = schedule_end(s);
    ASSERT_TRUE(verify_matrix_schedule(served, s).valid())
        << verify_matrix_schedule(served, s).to_text();
    s.slots[rng.below(s.slots.size())].end -= 0.005;
    s.makespan = schedule_end(s);
    EXPECT_GE(verify_matrix_schedule(served, s).count(ViolationKind::coverage), 1);
  }
}

}  // namespace
}  // namespace flux::matrix
