#pragma once
// A perfect matching on the entries of an integer matrix that are >= a threshold, kept up to date
// while the matrix only decreases (BvN, Solstice's BigSlice).
//
// After a step subtracts a slice, only the rows whose matched entry fell below the threshold lose
// their partner; `repair` re-augments just those rows with one breadth-first search each, instead
// of recomputing the matching from scratch. Lowering the threshold re-runs Hopcroft–Karp warm-
// started from the current matching (matching/hopcroft_karp.hpp).
//
// Cost: a repair is O(m) in the worst case but stops at the first free column, which in practice
// is a few rows away; the adjacency lists drop entries that reached zero as they are scanned, so
// they never cost more than once. Memory O(n + nnz).
#include <cstdint>
#include <vector>

#include "matching/hopcroft_karp.hpp"
#include "matrix_baselines/integer_demand.hpp"

namespace flux::matrix_baselines {

class ThresholdMatching {
 public:
  // `m` is referenced, not copied: the caller decreases it between repairs. Entries that are
  // zero at construction never become edges.
  explicit ThresholdMatching(const IntegerDemand& m);

  // Sets the threshold (>= 1) and completes the matching with Hopcroft–Karp warm-started from the
  // current one. Returns true iff the matching is perfect.
  [[nodiscard]] bool set_threshold(std::int64_t t);
  [[nodiscard]] std::int64_t threshold() const { return threshold_; }

  // Unmatches rows whose matched entry is now below the threshold and re-augments them one by
  // one. Returns true iff the matching is perfect again (rows that fail stay unmatched).
  [[nodiscard]] bool repair();

  [[nodiscard]] const std::vector<int>& row_to_col() const { return match_.left_to_right; }

 private:
  bool live(int i, int j) const { return m_.at(i, j) >= threshold_; }
  bool augment(int row);
  void prune(int row);

  const IntegerDemand& m_;
  std::int64_t threshold_ = 1;
  std::vector<std::vector<int>> adj_;
  matching::BipartiteMatching match_;
  // Breadth-first search state, reused between searches (stamped to avoid clearing).
  std::vector<int> col_seen_, col_from_;
  int stamp_ = 0;
};

}  // namespace flux::matrix_baselines
