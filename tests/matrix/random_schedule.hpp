#pragma once
// Test helper: random but valid all-stop schedules for any demand (time units, rate 1), to check
// that bounds stay below every valid makespan. Built from n column-relabelled cyclic shifts
// (together they cover every (i, j)), each cut into random pieces on random switches.
#include <algorithm>
#include <vector>

#include "core/matrix.hpp"
#include "core/rng.hpp"
#include "matrix/schedule.hpp"

namespace flux::testing {

inline matrix::MatrixSchedule random_valid_schedule(const Matrix& d, int switches, double delta,
                                                    Rng& rng) {
  const int n = d.n();
  matrix::MatrixSchedule s;
  s.algorithm = "random-test";
  s.n = n;
  s.switches = switches;
  s.delta = delta;
  const std::vector<int> relabel = rng.permutation(n);
  std::vector<double> now(static_cast<std::size_t>(switches), 0.0);
  for (int r = 0; r < n; ++r) {
    std::vector<int> perm(static_cast<std::size_t>(n));
    double w = 0.0;
    for (int i = 0; i < n; ++i) {
      perm[static_cast<std::size_t>(i)] = relabel[static_cast<std::size_t>((i + r) % n)];
      w = std::max(w, d(i, perm[static_cast<std::size_t>(i)]));
    }
    if (w == 0) continue;
    const int pieces = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(switches)));
    std::vector<double> cut(static_cast<std::size_t>(pieces));
    double total = 0.0;
    for (double& c : cut) total += c = rng.uniform(0.1, 1.0);
    for (double c : cut) {
      const auto sw = rng.below(static_cast<std::uint64_t>(switches));
      double& t = now[sw];
      const double idle = rng.uniform() < 0.3 ? rng.uniform(0.0, delta + 0.01) : 0.0;
      // Slightly more than w * c / total so rounding never leaves an entry short.
      const double dur = w * c / total * (1 + 1e-12);
      s.slots.push_back({static_cast<int>(sw), t + idle + delta, t + idle + delta + dur, perm});
      t += idle + delta + dur;
    }
  }
  s.makespan = schedule_end(s);
  return s;
}

// A random sparse or dense non-negative matrix with max line sum 1 (the paper's normalisation).
inline Matrix random_demand(int n, double density, Rng& rng) {
  Matrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (rng.uniform() < density)
        d(i, j) = rng.uniform() < 0.2 ? rng.uniform(0.5, 1.0) : rng.uniform(0.0, 0.2);
  const double m = d.max_line_sum();
  return m > 0 ? d.scaled(1.0 / m) : d;
}

}  // namespace flux::testing
