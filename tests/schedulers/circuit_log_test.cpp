// The dispatch's circuit log writes out the records it was given: the same records in the same
// order as a list of TimedCircuit, with the iteration end applied as the dispatch applies it.
#include "fabric_baselines/circuit_log.hpp"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace flux::schedulers {
namespace {

using fabric::TimedCircuit;

auto fields(const TimedCircuit& c) {
  return std::tuple(c.up, c.down, c.sw, c.a, c.b);
}

void expect_records(const std::vector<TimedCircuit>& got, const std::vector<TimedCircuit>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(fields(got[i]), fields(want[i])) << i;
}

// Windows of several circuits, two OCSes interleaved, one window going up at the end and one
// after it: records added before mark_open() that go up at or after the end are left out, the
// later ones kept; every down is clamped to the end.
TEST(CircuitLog, WritesTheRecordsInOrderClampedToTheEnd) {
  fabric_baselines::CircuitLog log;
  const std::vector<TimedCircuit> added = {{0, 10, 0, 1, 2},  {0, 10, 0, 3, 4},  {0, 12, 1, 1, 3},
                                           {10, 20, 0, 2, 1}, {10, 20, 0, 4, 3}, {12, 40, 1, 0, 2},
                                           {30, 40, 0, 1, 2}, {25, 40, 1, 3, 0}, {30, 40, 0, 0, 4},
                                           {35, 45, 1, 2, 4}, {35, 45, 1, 4, 2}, {30, 40, 0, 5, 6}};
  for (std::size_t i = 0; i < added.size(); ++i) {
    if (i == 10) log.mark_open();
    log.add(added[i].up, added[i].down, added[i].sw, added[i].a, added[i].b);
  }
  EXPECT_EQ(log.size(), added.size());
  // End 30: the records up from 30 on among the first 10 go; the last two stay (marked open).
  const std::vector<TimedCircuit> out = log.take(30);
  expect_records(out, {{0, 10, 0, 1, 2},
                       {0, 10, 0, 3, 4},
                       {0, 12, 1, 1, 3},
                       {10, 20, 0, 2, 1},
                       {10, 20, 0, 4, 3},
                       {12, 30, 1, 0, 2},
                       {25, 30, 1, 3, 0},
                       {35, 30, 1, 4, 2},
                       {30, 30, 0, 5, 6}});
  EXPECT_EQ(log.size(), 0u);
}

// More records than one release of the log's memory covers, in windows of varied sizes: every
// record comes out, in order.
TEST(CircuitLog, WritesMillionsOfRecordsInOrder) {
  fabric_baselines::CircuitLog log;
  std::vector<TimedCircuit> want;
  for (int w = 0; w < 400000; ++w)
    for (int k = 0; k < 1 + w % 7; ++k) {
      const TimedCircuit c{fabric::Time{w} * 100, fabric::Time{w} * 100 + 90, w % 3, k, w % 1000};
      log.add(c.up, c.down, c.sw, c.a, c.b);
      want.push_back(c);
    }
  expect_records(log.take(fabric::Time{1} << 40), want);
}

}  // namespace
}  // namespace flux::schedulers
