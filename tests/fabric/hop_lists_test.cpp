#include "fabric/hop_lists.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
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

TEST(HopLists, ManyHopsAreFiledInPassesOverRangesOfTasks) {
  // Task t gets t % 5 hops per round (some none), added in a scrambled task order: the passes
  // split the tasks by hop count, and every task must come out whole and in the order added.
  const std::size_t tasks = 1000, rounds = 300;
  fabric::HopLists l(tasks);
  std::size_t added = 0;
  for (std::size_t r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < tasks; ++k) {
      const std::size_t t = (k * 7919) % tasks;
      for (std::size_t copy = 0; copy < t % 5; ++copy, ++added)
        l.add(t, hop(static_cast<int>(copy), static_cast<fabric::Time>(r)));
    }
  l.seal();
  ASSERT_EQ(l.hop_count(), added);
  std::size_t seen = 0;
  for (std::size_t t = 0; t < tasks; ++t) {
    ASSERT_EQ(l[t].size(), rounds * (t % 5));
    for (std::size_t i = 0; i < l[t].size(); ++i) {
      ASSERT_EQ(l[t][i].start, static_cast<fabric::Time>(i / (t % 5)));
      ASSERT_EQ(l[t][i].sw, static_cast<int>(i % (t % 5)));
    }
    ASSERT_EQ(l[t].data(), l.all().data() + seen);  // task after task
    seen += l[t].size();
  }
}

// Runs of one task's hops (as `ideal` logs a flow's pieces) move as blocks: random run lengths,
// interleaved with single hops and split over two seals, file exactly as a stable sort by task.
TEST(HopLists, RunsOfOneTasksHopsFileAsAStableSortByTask) {
  const std::size_t tasks = 700;
  std::mt19937 rng(5);
  fabric::HopLists l(tasks);
  std::vector<std::pair<std::size_t, fabric::Time>> added;  // (task, start) in the order added
  fabric::Time next = 0;
  for (int seal = 0; seal < 2; ++seal) {
    for (int k = 0; k < 4000; ++k) {
      const std::size_t t = rng() % tasks, run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
      for (std::size_t i = 0; i < run; ++i, ++next) {
        l.add(t, hop(0, next));
        added.emplace_back(t, next);
      }
    }
    l.seal();
  }
  std::stable_sort(added.begin(), added.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(l.hop_count(), added.size());
  for (std::size_t k = 0; k < added.size(); ++k) ASSERT_EQ(l.all()[k].start, added[k].second) << k;
  std::size_t seen = 0;
  for (std::size_t t = 0; t < tasks; ++t) {
    ASSERT_EQ(l[t].data(), l.all().data() + seen);
    seen += l[t].size();
  }
}

TEST(HopLists, ManyHopsAddedAfterASealMergeWithTheFiledOnes) {
  const std::size_t tasks = 500;
  fabric::HopLists l(tasks);
  for (std::size_t t = 0; t < tasks; t += 2) l.add(t, hop(0, 1));
  l.seal();
  for (std::size_t t = tasks; t-- > 0;) l.add(t, hop(1, 2));
  l.seal();
  for (std::size_t t = 0; t < tasks; ++t) {
    const std::vector<fabric::Time> expected =
        t % 2 == 0 ? std::vector<fabric::Time>{1, 2} : std::vector<fabric::Time>{2};
    ASSERT_EQ(starts(l, t), expected);
  }
  const fabric::HopLists copy = l;
  EXPECT_EQ(starts(copy, 4), (std::vector<fabric::Time>{1, 2}));
}

// Hops added task after task, over one seal or two, need no filing and read as filed ones do.
TEST(HopLists, HopsAddedTaskAfterTaskReadAsFiledOnes) {
  fabric::HopLists l(5);
  l.add(1, hop(0, 1));
  l.add(1, hop(0, 2));
  l.add(3, hop(0, 3));
  l.seal();
  l.add(4, hop(1, 4));  // still in order after the first seal
  l.seal();
  EXPECT_EQ(starts(l, 1), (std::vector<fabric::Time>{1, 2}));
  EXPECT_EQ(starts(l, 3), (std::vector<fabric::Time>{3}));
  EXPECT_EQ(starts(l, 4), (std::vector<fabric::Time>{4}));
  EXPECT_TRUE(l[0].empty() && l[2].empty());
  EXPECT_EQ(l.task_of(2), 3u);
  EXPECT_EQ(l[1].data(), l.all().data());
  EXPECT_EQ(l[4].data(), l.all().data() + 3);
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
