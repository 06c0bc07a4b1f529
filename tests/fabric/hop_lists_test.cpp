#include "fabric/hop_lists.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace flux {
namespace {

fabric::Hop hop(int sw, fabric::Time start) {
  return {sw, 0, 1, start, start + 1, 1.0};
}

std::vector<fabric::Time> starts(const fabric::HopLists& l, std::size_t task) {
  std::vector<fabric::Time> out;
  for (const fabric::Hop& h : l[task]) out.push_back(h.start);
  return out;
}

TEST(HopLists, FilesHopsAddedInAnyTaskOrderKeepingEachTasksOrder) {
  fabric::HopLists l(4);
  l.add(2, hop(0, 30));
  l.add(0, hop(1, 10));
  l.add(2, hop(0, 5));  // earlier in time, later in order: order of adding wins
  l.add(3, hop(1, 7));
  l.seal();
  EXPECT_EQ(l.size(), 4u);
  EXPECT_EQ(l.hop_count(), 4u);
  EXPECT_EQ(starts(l, 0), (std::vector<fabric::Time>{10}));
  EXPECT_TRUE(l[1].empty());
  EXPECT_EQ(starts(l, 2), (std::vector<fabric::Time>{30, 5}));
  EXPECT_EQ(starts(l, 3), (std::vector<fabric::Time>{7}));
  EXPECT_EQ(l.all().size(), 4u);
  EXPECT_EQ(l.all()[1].start, 30);  // task after task
}

TEST(HopLists, AddingAfterASealAppendsToTheFiledLists) {
  fabric::HopLists l(3);
  l.add(1, hop(0, 1));
  l.seal();
  l.add(0, hop(0, 2));
  l.add(1, hop(0, 3));
  l.seal();
  EXPECT_EQ(starts(l, 0), (std::vector<fabric::Time>{2}));
  EXPECT_EQ(starts(l, 1), (std::vector<fabric::Time>{1, 3}));
  EXPECT_TRUE(l[2].empty());
}

TEST(HopLists, ManyHopsSpanSeveralLogChunks) {
  const std::size_t tasks = 1000, rounds = 700;  // 700,000 hops: chunks of growing size
  fabric::HopLists l(tasks);
  for (std::size_t r = 0; r < rounds; ++r)
    for (std::size_t t = 0; t < tasks; ++t)
      l.add((t * 7919) % tasks, hop(0, static_cast<fabric::Time>(r)));
  l.seal();
  ASSERT_EQ(l.hop_count(), tasks * rounds);
  for (std::size_t t = 0; t < tasks; t += 97) {
    ASSERT_EQ(l[t].size(), rounds);
    for (std::size_t r = 0; r < rounds; ++r) ASSERT_EQ(l[t][r].start, static_cast<fabric::Time>(r));
  }
}

TEST(HopLists, ReadingBeforeASealOrAddingOutOfRangeIsAnError) {
  fabric::HopLists l(2);
  l.add(0, hop(0, 1));
  EXPECT_THROW((void)l[0], std::logic_error);
  EXPECT_THROW((void)l.all(), std::logic_error);
  EXPECT_THROW(l.add(2, hop(0, 1)), std::out_of_range);
  l.seal();
  EXPECT_EQ(l[0].size(), 1u);
}

}  // namespace
}  // namespace flux
