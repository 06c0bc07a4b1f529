#include "matrix_baselines/threshold_matching.hpp"

#include <algorithm>

namespace flux::matrix_baselines {

ThresholdMatching::ThresholdMatching(const IntegerDemand& m)
    : m_(m), adj_(static_cast<std::size_t>(m.n)) {
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j)
      if (m.at(i, j) > 0) adj_[static_cast<std::size_t>(i)].push_back(j);
  match_.left_to_right.assign(static_cast<std::size_t>(m.n), -1);
  match_.right_to_left.assign(static_cast<std::size_t>(m.n), -1);
  col_seen_.assign(static_cast<std::size_t>(m.n), 0);
  col_from_.assign(static_cast<std::size_t>(m.n), -1);
}

bool ThresholdMatching::set_threshold(std::int64_t t) {
  threshold_ = std::max<std::int64_t>(t, 1);
  // Drop matched edges that the new threshold no longer allows (only when raising it).
  for (int i = 0; i < m_.n; ++i) {
    const int j = match_.left_to_right[static_cast<std::size_t>(i)];
    if (j >= 0 && !live(i, j)) {
      match_.left_to_right[static_cast<std::size_t>(i)] = -1;
      match_.right_to_left[static_cast<std::size_t>(j)] = -1;
      --match_.size;
    }
  }
  std::vector<std::vector<int>> live_adj(static_cast<std::size_t>(m_.n));
  for (int i = 0; i < m_.n; ++i) {
    prune(i);
    for (int j : adj_[static_cast<std::size_t>(i)])
      if (live(i, j)) live_adj[static_cast<std::size_t>(i)].push_back(j);
  }
  match_ = hopcroft_karp(m_.n, m_.n, live_adj, &match_);
  return match_.size == m_.n;
}

bool ThresholdMatching::repair() {
  std::vector<int> freed;
  for (int i = 0; i < m_.n; ++i) {
    const int j = match_.left_to_right[static_cast<std::size_t>(i)];
    if (j >= 0 && live(i, j)) continue;
    if (j >= 0) {
      match_.left_to_right[static_cast<std::size_t>(i)] = -1;
      match_.right_to_left[static_cast<std::size_t>(j)] = -1;
      --match_.size;
    }
    freed.push_back(i);
  }
  for (int i : freed)
    if (augment(i)) ++match_.size;
  return match_.size == m_.n;
}

// Entries only decrease, so an entry that reached zero is gone for good: remove it in place.
void ThresholdMatching::prune(int row) {
  auto& list = adj_[static_cast<std::size_t>(row)];
  std::erase_if(list, [&](int j) { return m_.at(row, j) <= 0; });
}

// Breadth-first search over alternating paths from a free row; stops at the first free column.
bool ThresholdMatching::augment(int row) {
  ++stamp_;
  std::vector<int> queue{row};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int i = queue[q];
    prune(i);
    for (int j : adj_[static_cast<std::size_t>(i)]) {
      const auto sj = static_cast<std::size_t>(j);
      if (col_seen_[sj] == stamp_ || !live(i, j)) continue;
      col_seen_[sj] = stamp_;
      col_from_[sj] = i;
      const int next = match_.right_to_left[sj];
      if (next >= 0) {
        queue.push_back(next);
        continue;
      }
      // Flip the path back to the root: each row on it takes the column it was reached through.
      for (int c = j; c >= 0;) {
        const int r = col_from_[static_cast<std::size_t>(c)];
        const int prev = match_.left_to_right[static_cast<std::size_t>(r)];
        match_.left_to_right[static_cast<std::size_t>(r)] = c;
        match_.right_to_left[static_cast<std::size_t>(c)] = r;
        c = prev;
      }
      return true;
    }
  }
  return false;
}

}  // namespace flux::matrix_baselines
