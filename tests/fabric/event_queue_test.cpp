#include "fabric/event_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

namespace flux {
namespace {

// Pushes and pops interleaved, with many events at equal times: every pop must return the least
// (time, push order) of the events queued, whatever the shape of the heap.
TEST(EventQueue, PopsByTimeThenPushOrderUnderInterleavedPushesAndPops) {
  std::mt19937_64 rng(7);
  fabric::EventQueue q;
  std::vector<std::tuple<fabric::Time, std::int64_t>> queued;  // (time, push number)
  std::int64_t pushed = 0;
  fabric::Time floor = 0;  // as in a simulation, nothing is pushed before the last pop
  for (int round = 0; round < 2000; ++round) {
    const int pushes = static_cast<int>(rng() % 7);
    for (int k = 0; k < pushes; ++k) {
      const fabric::Time t = floor + static_cast<fabric::Time>(rng() % 5);
      q.push(t, static_cast<int>(pushed % 2), pushed);
      queued.emplace_back(t, pushed++);
    }
    const int pops = static_cast<int>(rng() % 6);
    for (int k = 0; k < pops && !queued.empty(); ++k) {
      const auto least = std::min_element(queued.begin(), queued.end());
      const fabric::Event e = q.pop();
      ASSERT_EQ(e.time, std::get<0>(*least));
      ASSERT_EQ(e.payload, std::get<1>(*least));
      EXPECT_EQ(e.kind, static_cast<int>(e.payload % 2));
      floor = e.time;
      queued.erase(least);
    }
    ASSERT_EQ(q.size(), queued.size());
  }
  while (!queued.empty()) {
    const auto least = std::min_element(queued.begin(), queued.end());
    ASSERT_EQ(q.pop().payload, std::get<1>(*least));
    queued.erase(least);
  }
  EXPECT_TRUE(q.empty());
}

// The order is that of signed times, from the most negative to the never-reached end of time.
TEST(EventQueue, OrdersTimesAsSignedNumbers) {
  const std::vector<fabric::Time> times = {
      fabric::kNever, -5, 0, 3, std::numeric_limits<fabric::Time>::min(), -1};
  fabric::EventQueue q;
  for (std::size_t i = 0; i < times.size(); ++i) q.push(times[i], 0, static_cast<std::int64_t>(i));
  std::vector<fabric::Time> popped;
  while (!q.empty()) popped.push_back(q.pop().time);
  std::vector<fabric::Time> want = times;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(popped, want);
}

}  // namespace
}  // namespace flux
