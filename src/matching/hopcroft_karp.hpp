#pragma once
// Maximum-cardinality bipartite matching (Hopcroft–Karp), O(m sqrt(n)).
// Left and right vertices are 0..n_left-1 and 0..n_right-1; adj[l] lists right neighbours.
// An optional initial matching (e.g. the previous step's) is extended, not rebuilt.
#include <vector>

namespace flux::matching {

struct BipartiteMatching {
  std::vector<int> left_to_right;  // -1 = unmatched
  std::vector<int> right_to_left;
  int size = 0;
};

[[nodiscard]] BipartiteMatching hopcroft_karp(int n_left, int n_right,
                                              const std::vector<std::vector<int>>& adj,
                                              const BipartiteMatching* initial = nullptr);

}  // namespace flux::matching
