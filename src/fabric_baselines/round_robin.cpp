#include "fabric_baselines/round_robin.hpp"

#include <algorithm>

namespace flux::fabric_baselines {

std::vector<Matching> round_robin_matchings(int n) {
  // Odd n: add a phantom node; its partner idles in that round.
  const int m = n % 2 == 0 ? n : n + 1;
  const int ring = m - 1;
  std::vector<Matching> rounds;
  for (int r = 0; r < ring; ++r) {
    Matching round;
    if (m - 1 < n) round.emplace_back(r, m - 1);
    for (int d = 1; d < m / 2; ++d) {
      int a = (r + d) % ring, b = (r - d + ring) % ring;
      round.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(round.begin(), round.end());
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<Matching> shift_permutations(int n) {
  std::vector<Matching> rounds;
  for (int k = 1; k < n; ++k) {
    Matching round;
    for (int i = 0; i < n; ++i) round.emplace_back(i, (i + k) % n);
    rounds.push_back(std::move(round));
  }
  return rounds;
}

}  // namespace flux::fabric_baselines
