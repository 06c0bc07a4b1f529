#pragma once
// Demand-oblivious matchings for rotor switches (RotorNet).
// Duplex: the circle method's 1-factorization of K_n — n−1 perfect matchings for even n (node n−1
// fixed, the rest rotating), n matchings with one idle node each for odd n; every pair appears in
// exactly one. Simplex: the n−1 shifts i → i+k mod n. O(n²) pairs in total.
#include <utility>
#include <vector>

namespace flux::fabric_baselines {

using Matching = std::vector<std::pair<int, int>>;  // duplex {a, b} with a < b; simplex a -> b

[[nodiscard]] std::vector<Matching> round_robin_matchings(int n);
[[nodiscard]] std::vector<Matching> shift_permutations(int n);

}  // namespace flux::fabric_baselines
