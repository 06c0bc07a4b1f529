#include "matching/assignment.hpp"

#include <limits>

namespace flux::matching {

Assignment min_cost_assignment(const Matrix& cost) {
  const int n = cost.n();
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based arrays; column 0 is the virtual root of each augmenting search.
  std::vector<double> u(static_cast<std::size_t>(n) + 1, 0.0),
      v(static_cast<std::size_t>(n) + 1, 0.0);
  std::vector<int> p(static_cast<std::size_t>(n) + 1, 0), way(static_cast<std::size_t>(n) + 1, 0);
  std::vector<double> minv(static_cast<std::size_t>(n) + 1);
  std::vector<char> used(static_cast<std::size_t>(n) + 1);
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[static_cast<std::size_t>(j0)] = 1;
      const int i0 = p[static_cast<std::size_t>(j0)];
      const double* row = cost.row(i0 - 1);
      const double ui0 = u[static_cast<std::size_t>(i0)];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= n; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        if (used[sj]) continue;
        const double cur = row[j - 1] - ui0 - v[sj];
        if (cur < minv[sj]) {
          minv[sj] = cur;
          way[sj] = j0;
        }
        if (minv[sj] < delta) {
          delta = minv[sj];
          j1 = j;
        }
      }
      for (int j = 0; j <= n; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        if (used[sj]) {
          u[static_cast<std::size_t>(p[sj])] += delta;
          v[sj] -= delta;
        } else {
          minv[sj] -= delta;
        }
      }
      j0 = j1;
    } while (p[static_cast<std::size_t>(j0)] != 0);
    do {
      const int j1 = way[static_cast<std::size_t>(j0)];
      p[static_cast<std::size_t>(j0)] = p[static_cast<std::size_t>(j1)];
      j0 = j1;
    } while (j0 != 0);
  }
  Assignment a;
  a.row_to_col.assign(static_cast<std::size_t>(n), -1);
  for (int j = 1; j <= n; ++j)
    a.row_to_col[static_cast<std::size_t>(p[static_cast<std::size_t>(j)] - 1)] = j - 1;
  for (int i = 0; i < n; ++i) a.cost += cost(i, a.row_to_col[static_cast<std::size_t>(i)]);
  return a;
}

}  // namespace flux::matching
