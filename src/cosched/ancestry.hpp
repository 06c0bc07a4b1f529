#pragma once
// "Is message a a DAG ancestor of message b?" — the one question the local search and the MILP's
// conflict analysis ask about precedence. Two answers to it:
//  * MessageClosure (conflicts.hpp): the whole message × message closure as bitsets, O(V·M/64)
//    words, every query O(1) — for instances where that fits in memory;
//  * LazyAncestry (below): no message² structure; each query is a depth-first search over the
//    task DAG, pruned by two labels that grow along every edge (the topological position and the
//    earliest start ES), so it only visits tasks that lie between the two messages in both. The
//    last backward and the last forward search are kept, so the local search's and the conflict
//    analysis's runs of queries with one fixed end are answered from them.
// Both give the same answer to every query.
#include <cstdint>
#include <vector>

#include "cosched/instance.hpp"

namespace flux::cosched {

class Ancestry {
 public:
  virtual ~Ancestry() = default;
  // True iff message `a` is an ancestor of message `b` (a path a → … → b in the task DAG).
  [[nodiscard]] virtual bool ancestor(int a, int b) const = 0;
};

// Not thread-safe (the kept searches are mutable state): one per thread. Memory O(V).
class LazyAncestry final : public Ancestry {
 public:
  explicit LazyAncestry(const CoschedInstance& inst);
  [[nodiscard]] bool ancestor(int a, int b) const override;
  // Tasks visited by all searches so far (for tests and the solver log).
  [[nodiscard]] std::int64_t visited() const { return visited_; }

 private:
  // One kept search: every task reachable from `root` (backward: its ancestors; forward: its
  // descendants) whose labels stay within [rank, es] limits; `mark[v] == stamp` for those.
  struct Search {
    int root = -1;
    int rank_limit = 0;
    double es_limit = 0.0;
    std::uint32_t stamp = 0;
    std::vector<std::uint32_t> mark;
  };
  // Whether the kept search covers task `v` (its labels are within the limits).
  [[nodiscard]] bool covers(const Search& s, int v, bool backward) const;
  void run(Search& s, int root, int rank_limit, double es_limit, bool backward) const;

  const CoschedInstance& inst_;
  std::vector<int> rank_;  // position in inst.topo
  mutable Search back_, fwd_;
  mutable std::vector<int> stack_;
  mutable int last_source_ = -1;
  mutable std::int64_t visited_ = 0;
};

}  // namespace flux::cosched
