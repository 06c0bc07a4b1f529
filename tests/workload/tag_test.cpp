#include "workload/tag.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "workload/workload.hpp"

namespace flux::workload {
namespace {

TEST(Tag, EqualStringsShareOneEntryAndCompareAsStrings) {
  const Tag a = "fwd";
  const Tag b = std::string("fw") + "d";
  EXPECT_EQ(a, b);
  EXPECT_EQ(&a.str(), &b.str());  // interned: one string for every task tagged "fwd"
  EXPECT_EQ(a, "fwd");
  EXPECT_EQ(a, std::string("fwd"));
  EXPECT_FALSE(a == "bwd");
  EXPECT_FALSE(a == Tag("bwd"));
  EXPECT_EQ(fmt::format("[{}]", a), "[fwd]");
}

TEST(Tag, EmptyIsTheDefault) {
  const Tag none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, Tag(""));
  EXPECT_EQ(none.str(), "");
  EXPECT_FALSE(Tag("dp").empty());
}

// Tags are made on several threads (the Flux scheduler's workers); every thread sees one entry.
TEST(Tag, ThreadsInternTheSameString) {
  std::vector<const std::string*> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&seen, i] {
      for (int k = 0; k < 1000; ++k) {
        const Tag other = "tag-" + std::to_string(k);
        (void)other;
      }
      seen[i] = &Tag("shared-tag").str();
    });
  for (std::thread& t : threads) t.join();
  for (const std::string* p : seen) EXPECT_EQ(p, seen.front());
}

// The record the 1,024-GPU iteration holds 18 M of: no padding, tags as pointers.
TEST(Task, RecordIsCompact) {
  if (sizeof(std::string) != 32 || sizeof(std::vector<int>) != 24) GTEST_SKIP();
  EXPECT_EQ(sizeof(Task), 96u);
}

}  // namespace
}  // namespace flux::workload
