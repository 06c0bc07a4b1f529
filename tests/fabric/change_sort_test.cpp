#include "fabric/change_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace flux {
namespace {

using fabric::Change;

// A bucket as the metric fills one: records in increasing seq, `times` distinct times (integral
// picoseconds or not), GPUs below `gpus`, runs of one time as a task's records make them.
std::vector<Change> bucket(std::size_t n, std::size_t times, std::uint32_t gpus, bool fractional,
                           std::mt19937_64& rng) {
  std::vector<double> t(times);
  for (double& x : t) {
    x = static_cast<double>(rng() % 100'000'000 + 4'000'000'000'000);
    if (fractional) x += static_cast<double>(rng() % 1000) / 997.0;
  }
  std::vector<Change> out;
  std::uint32_t seq = static_cast<std::uint32_t>(rng() % 1000);
  while (out.size() < n) {
    const double at = t[rng() % times];
    const auto gpu = static_cast<std::uint32_t>(rng() % gpus);
    for (std::size_t run = 1 + rng() % 4; run > 0 && out.size() < n; --run)
      out.emplace_back(at, 1.0, seq++,
                       rng() % 3 == 0 ? gpu : static_cast<std::uint32_t>(rng() % gpus),
                       static_cast<fabric::Curve>(rng() % 7));
  }
  return out;
}

void expect_sorted_like_comparisons(std::vector<Change> records, fabric::ChangeSort& sort) {
  std::vector<Change> expected = records;
  std::sort(expected.begin(), expected.end(),
            [](const Change& a, const Change& b) { return a.order() < b.order(); });
  const std::span<const Change> got = sort(records);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].order(), expected[i].order()) << "record " << i << " of " << got.size();
    ASSERT_EQ(got[i].by, expected[i].by);
  }
}

TEST(ChangeSort, OrdersEveryBucketAsComparisonsDoByTimeGpuAndSeq) {
  std::mt19937_64 rng(7);
  fabric::ChangeSort sort;  // one sorter for every bucket: its scratch and stamps carry over
  for (const std::size_t n : {0, 1, 2, 31, 32, 33, 100, 257, 1000, 4097})
    for (const std::size_t times : {std::size_t{1}, std::size_t{3}, n / 8 + 1, n / 4 + 2, n + 1})
      for (const std::uint32_t gpus : {1U, 8U, 1024U, 1U << 20})
        for (const bool fractional : {false, true}) {
          SCOPED_TRACE(testing::Message() << n << " records, " << times << " times, " << gpus
                                          << " GPUs, fractional " << fractional);
          expect_sorted_like_comparisons(bucket(n, times, gpus, fractional, rng), sort);
        }
}

TEST(ChangeSort, KeepsTheOrderMadeAmongRecordsOfOneTimeAndGpu) {
  fabric::ChangeSort sort;
  std::vector<Change> records;
  for (std::uint32_t seq = 0; seq < 300; ++seq)  // one time, two GPUs; seq alone orders a GPU's
    records.emplace_back(5e12, seq, seq, 1 - seq % 2, fabric::kNic);
  const std::span<const Change> got = sort(records);
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].gpu(), i < 150 ? 0 : 1);
    EXPECT_EQ(got[i].by, static_cast<double>(i < 150 ? 2 * i + 1 : 2 * (i - 150)));
  }
}

}  // namespace
}  // namespace flux
