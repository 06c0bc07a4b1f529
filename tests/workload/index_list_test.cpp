#include "workload/index_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace flux::workload {
namespace {

std::vector<int> as_vector(const IndexList& l) {
  return {l.begin(), l.end()};
}

TEST(IndexList, IsSixteenBytes) {
  EXPECT_EQ(sizeof(IndexList), 16u);
}

// Growing past the three inline indices onto the heap keeps the order and every value.
TEST(IndexList, PushBackKeepsOrderAcrossTheInlineLimit) {
  IndexList l;
  std::vector<int> want;
  for (int i = 0; i < 40; ++i) {
    l.push_back(1000 - 7 * i);
    want.push_back(1000 - 7 * i);
    ASSERT_EQ(as_vector(l), want) << "after " << i + 1;
  }
  EXPECT_EQ(l.front(), 1000);
  EXPECT_EQ(l.back(), 1000 - 7 * 39);
  EXPECT_TRUE(l == want);
}

TEST(IndexList, CopiesAndMovesAreIndependent) {
  for (int n : {0, 2, 3, 4, 9}) {
    std::vector<int> want(static_cast<std::size_t>(n));
    std::iota(want.begin(), want.end(), 5);
    IndexList a;
    a = want;
    IndexList b = a;  // copy
    b.push_back(-1);
    EXPECT_EQ(as_vector(a), want) << n;
    IndexList c = std::move(b);
    EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
    want.push_back(-1);
    EXPECT_EQ(as_vector(c), want) << n;
    c = a;  // copy-assign over a longer list
    want.pop_back();
    EXPECT_EQ(as_vector(c), want) << n;
    a = IndexList{7, 8, 9, 10};  // move-assign over a list
    EXPECT_EQ(as_vector(a), (std::vector<int>{7, 8, 9, 10})) << n;
  }
}

// The sort-and-unique idiom of the task emitter works on it as on a vector.
TEST(IndexList, SortUniqueEraseAndClear) {
  IndexList l = {5, 1, 5, 3, 1, 9};
  std::sort(l.begin(), l.end());
  l.erase(std::unique(l.begin(), l.end()), l.end());
  EXPECT_EQ(as_vector(l), (std::vector<int>{1, 3, 5, 9}));
  l.push_back(11);
  EXPECT_EQ(l.size(), 5u);
  l.clear();
  EXPECT_TRUE(l.empty());
  l.reserve(10);
  EXPECT_TRUE(l.empty());
  l.push_back(4);
  EXPECT_EQ(as_vector(l), std::vector<int>{4});
}

}  // namespace
}  // namespace flux::workload
