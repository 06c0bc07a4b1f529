#include "core/realloc_array.hpp"

#include <gtest/gtest.h>

#include <span>
#include <utility>
#include <vector>

namespace flux {
namespace {

struct Record {
  int key = 0;
  double value = 0.0;
};

ReallocArray<Record> counting(int n) {
  ReallocArray<Record> a;
  for (int i = 0; i < n; ++i) a.push_back({i, 0.5 * i});
  return a;
}

void expect_counting(const ReallocArray<Record>& a, int n) {
  ASSERT_EQ(a.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(a[static_cast<std::size_t>(i)].key, i);
    ASSERT_EQ(a[static_cast<std::size_t>(i)].value, 0.5 * i);
  }
}

TEST(ReallocArray, GrowingKeepsEveryElement) {
  const ReallocArray<Record> a = counting(100000);
  expect_counting(a, 100000);
  const std::span<const Record> s = a;
  EXPECT_EQ(s.size(), 100000u);
  EXPECT_EQ(s.back().key, 99999);
}

// Doubling up to 1 MB, then 64 MB reserved at once (a mapping of its own, grown without copies),
// then doubling again; every element kept across each step.
TEST(ReallocArray, PastOneMegabyteReservesSixtyFourAtOnce) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  ReallocArray<Record> a;
  std::size_t last = 0;
  std::vector<std::size_t> capacities;
  for (int i = 0; a.size() * sizeof(Record) <= 64 * kMiB; ++i) {
    a.push_back({i, 0.5 * i});
    if (a.capacity() != last) capacities.push_back(last = a.capacity());
  }
  const auto bytes = [](std::size_t c) { return c * sizeof(Record); };
  ASSERT_GE(capacities.size(), 3u);
  EXPECT_EQ(capacities.front(), 16u);
  EXPECT_EQ(bytes(capacities.back()), 128 * kMiB);
  EXPECT_EQ(bytes(capacities[capacities.size() - 2]), 64 * kMiB);
  EXPECT_EQ(bytes(capacities[capacities.size() - 3]), kMiB);
  expect_counting(a, static_cast<int>(a.size()));
}

TEST(ReallocArray, CopiesAreIndependentAndMovesEmptyTheSource) {
  ReallocArray<Record> a = counting(1000);
  ReallocArray<Record> copy = a;
  copy[0].key = -1;
  EXPECT_EQ(a[0].key, 0);
  ReallocArray<Record> moved = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is the point
  expect_counting(moved, 1000);
  copy = moved;
  expect_counting(copy, 1000);
}

TEST(ReallocArray, TruncateKeepsThePrefixAndCanEmpty) {
  ReallocArray<Record> a = counting(5000);
  a.truncate(1234);
  expect_counting(a, 1234);
  a.truncate(2000);  // not a growth
  EXPECT_EQ(a.size(), 1234u);
  a.push_back({1234, 617.0});
  expect_counting(a, 1235);
  a.truncate(0);
  EXPECT_TRUE(a.empty());
  a.push_back({0, 0.0});
  expect_counting(a, 1);
}

TEST(ReallocArray, ResizeForOverwriteGivesRoomToAssign) {
  ReallocArray<Record> a = counting(10);
  a.resize_for_overwrite(50);
  ASSERT_EQ(a.size(), 50u);
  for (int i = 10; i < 50; ++i) a[static_cast<std::size_t>(i)] = {i, 0.5 * i};
  expect_counting(a, 50);
}

}  // namespace
}  // namespace flux
