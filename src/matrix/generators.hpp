#pragma once
// Seeded demand-matrix generators (the Spectra paper's workloads and more). Every matrix is
// normalised so that the largest row or column sum is 1 (unit `normalized`): the busiest port needs
// one time unit on one link. The same (kind, options, seed) always gives the same matrix.
//
//   synthetic  Solstice/Eclipse benchmark: large + small random permutations, Gaussian noise on
//              the support, shrunk and re-centred (50 rounds) so line sums stay ~1.
//   gpt        11B GPT on 32 GPUs (TP=2, PP=4, DP=4); 64/128 ports = block-diagonal copies.
//   moe        expert-parallel dispatch: tokens of rank i routed (top-k) to experts on rank j.
//   alltoall   uniform off-diagonal traffic.
//   perm       sum of k random weighted permutations.
//   sparse     each off-diagonal entry non-zero with probability `density`.
// Cost: O(n^2) per matrix, plus O(ranks·tokens·top_k) for moe.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/matrix.hpp"

namespace flux::matrix {

enum class Popularity { dirichlet, zipf };

struct GeneratorOptions {
  int n = 0;  // ports; 0 = the kind's default (synthetic 100, gpt 32, moe 64, perm 32, others 64)
  // synthetic
  int large_flows = 4;
  int small_flows = 12;
  double large_share = 0.7;     // share of a port's load carried by the large flows
  std::optional<double> noise;  // std of the noise; default 0.003 for synthetic, 0 for gpt
  // moe
  int tokens = 4096;  // tokens per rank
  int top_k = 2;
  int experts = 0;  // 0 = one expert per rank; else a multiple of n, contiguous groups per rank
  Popularity popularity = Popularity::dirichlet;
  double alpha = 2.0;   // Dirichlet concentration
  double zipf_s = 1.0;  // Zipf exponent
  // perm
  int permutations = 7;
  // sparse
  double density = 0.2;
};

// Names accepted by generate_matrix, in a stable order (for help texts).
[[nodiscard]] const std::vector<std::string>& generator_kinds();

// Throws InputError("", option, expectation) for an unknown kind or an out-of-range option.
[[nodiscard]] Matrix generate_matrix(const std::string& kind, const GeneratorOptions& opt,
                                     std::uint64_t seed);

// Divides by the largest line sum (a zero matrix is returned unchanged).
[[nodiscard]] Matrix normalize_max_line(const Matrix& m);

[[nodiscard]] Matrix generate_synthetic(const GeneratorOptions& opt, std::uint64_t seed);
[[nodiscard]] Matrix generate_gpt(const GeneratorOptions& opt, std::uint64_t seed);
[[nodiscard]] Matrix generate_moe(const GeneratorOptions& opt, std::uint64_t seed);
[[nodiscard]] Matrix generate_alltoall(const GeneratorOptions& opt);
[[nodiscard]] Matrix generate_permutations(const GeneratorOptions& opt, std::uint64_t seed);
[[nodiscard]] Matrix generate_sparse(const GeneratorOptions& opt, std::uint64_t seed);

}  // namespace flux::matrix
