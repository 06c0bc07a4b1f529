#include "core/gallop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.hpp"

namespace flux {
namespace {

// Every hint, including past the end, on sorted arrays with runs of equal values, for a key
// below, between, equal to and above the values: the answer is std::partition_point's.
TEST(PartitionPointNear, SameAnswerAsPartitionPointFromEveryHint) {
  Rng rng(7);
  for (int n : {0, 1, 2, 3, 5, 8, 17, 64, 100}) {
    std::vector<int> v(static_cast<std::size_t>(n));
    for (int& x : v) x = static_cast<int>(rng.below(10));
    std::sort(v.begin(), v.end());
    for (int key = -1; key <= 10; ++key) {
      for (const bool strict : {true, false}) {
        const auto before = [&](int x) { return strict ? x < key : x <= key; };
        const auto want =
            static_cast<std::size_t>(std::partition_point(v.begin(), v.end(), before) - v.begin());
        for (std::size_t hint = 0; hint <= v.size() + 2; ++hint)
          ASSERT_EQ(partition_point_near(v, hint, before), want)
              << "n " << n << " key " << key << " strict " << strict << " hint " << hint;
      }
    }
  }
}

}  // namespace
}  // namespace flux
