#include "cosched/ancestry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "cosched/conflicts.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::make_fabric;

// The pruned searches (topological position and ES) and the kept searches give the closure's
// answer on every ordered pair, whatever the order of the queries: row by row (the backward
// search is reused), column by column (the forward one) and shuffled (mostly misses).
TEST(Ancestry, LazySearchAnswersLikeTheClosure) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const double edges = seed % 2 == 0 ? 0.25 : 0.03;  // dense and sparse DAGs
    const auto inst =
        make_instance(testing::random_workload(seed, 5, 60, edges), make_fabric(5, 2, 1.0));
    const MessageClosure closure(inst);
    const int n = inst.message_count();
    std::vector<std::pair<int, int>> rows, columns;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        rows.emplace_back(a, b);
        columns.emplace_back(b, a);
      }
    auto shuffled = rows;
    Rng rng(seed);
    rng.shuffle(shuffled);
    int related = 0;
    for (const auto* queries : {&rows, &columns, &shuffled}) {
      const LazyAncestry lazy(inst);
      for (const auto& [a, b] : *queries) {
        ASSERT_EQ(lazy.ancestor(a, b), closure.ancestor(a, b))
            << "seed " << seed << ": " << a << " before " << b;
        related += closure.ancestor(a, b) ? 1 : 0;
      }
    }
    EXPECT_GT(related, 0) << "seed " << seed << ": the DAG relates no two messages";
  }
}

// The labels prune: asking a message about its direct successor message visits a few tasks,
// not the DAG.
TEST(Ancestry, PrunedSearchStaysLocal) {
  // A chain m0 -> c -> m1 -> c -> m2 ... : each query is about neighbours.
  std::vector<workload::Task> tasks;
  int prev = -1;
  for (int k = 0; k < 200; ++k) {
    tasks.push_back(
        testing::send(k % 2, 1 - k % 2, 1, prev < 0 ? std::vector<int>{} : std::vector<int>{prev}));
    tasks.push_back(testing::compute(k % 2, 1, {2 * k}));
    prev = 2 * k + 1;
  }
  const auto inst = make_instance(testing::make_workload(2, tasks), make_fabric(2, 1, 1.0));
  const LazyAncestry lazy(inst);
  for (int m = 0; m + 1 < inst.message_count(); ++m) {
    EXPECT_TRUE(lazy.ancestor(m, m + 1));
    EXPECT_FALSE(lazy.ancestor(m + 1, m));
  }
  EXPECT_LE(lazy.visited(), 4 * inst.message_count());
}

}  // namespace
}  // namespace flux::cosched
