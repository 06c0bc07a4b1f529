#include "matrix/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "matrix/demand.hpp"

namespace flux::matrix {
namespace {

void require(bool ok, const std::string& option, const std::string& expected) {
  if (!ok) throw InputError("", option, expected);
}

int ports_or(const GeneratorOptions& opt, int fallback) {
  return opt.n == 0 ? fallback : opt.n;
}

void check_ports(int n, int min_n) {
  require(n >= min_n && n <= kMaxPorts, "n",
          "an integer in [" + std::to_string(min_n) + ", " + std::to_string(kMaxPorts) + "]");
}

double checked_noise(const GeneratorOptions& opt, double fallback) {
  const double s = opt.noise.value_or(fallback);
  require(std::isfinite(s) && s >= 0.0, "noise", "a finite standard deviation >= 0");
  return s;
}

// Adds weight * P for a uniform random permutation P.
void add_random_permutation(Matrix& m, Rng& rng, double weight) {
  const std::vector<int> p = rng.permutation(m.n());
  for (int i = 0; i < m.n(); ++i) m(i, p[static_cast<std::size_t>(i)]) += weight;
}

// One non-zero of the clean matrix and its noise.
struct NoisyEntry {
  int i, j;
  double noise;
};

// Subtracts from the noise of every non-zero of each row (or column) the line's mean noise, so
// the noise no longer shifts line sums. Entries are in row-major order, so every line is summed
// in ascending index order. O(nnz + n).
void recentre(std::vector<NoisyEntry>& entries, int n, bool rows) {
  std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
  std::vector<int> count(static_cast<std::size_t>(n), 0);
  for (const NoisyEntry& e : entries) {
    const auto k = static_cast<std::size_t>(rows ? e.i : e.j);
    sum[k] += e.noise;
    ++count[k];
  }
  for (NoisyEntry& e : entries) {
    const auto k = static_cast<std::size_t>(rows ? e.i : e.j);
    e.noise -= sum[k] / count[k];
  }
}

// The Spectra paper's noise: Gaussian on the support, shrunk to |noise| <= 0.999·entry, re-centred
// 50 rounds. Re-centring can in rare cases push an entry's noise past -entry; such an entry is
// clamped to 0.1 % of its clean value so the support never changes. O(n^2 + 50·nnz).
Matrix add_support_noise(const Matrix& clean, double stddev, Rng& rng) {
  const int n = clean.n();
  std::vector<NoisyEntry> entries;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double v = clean(i, j);
      if (v > 0.0)
        entries.push_back({i, j, std::clamp(rng.normal(0.0, stddev), -0.999 * v, 0.999 * v)});
    }
  for (int round = 0; round < 50; ++round) {
    recentre(entries, n, true);
    recentre(entries, n, false);
  }
  Matrix out = clean;
  for (const NoisyEntry& e : entries)
    out(e.i, e.j) = std::max(clean(e.i, e.j) + e.noise, 1e-3 * clean(e.i, e.j));
  return out;
}

// The 32-GPU GPT-11B matrix of the Spectra paper, in the reference's raw units (GB).
Matrix gpt32_raw() {
  Matrix m(32);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      const int gap = std::abs(i - j);
      if (i != j && i / 2 == j / 2) m(i, j) += 680.0 * 125.0 / 1024.0;   // tensor parallel
      if (gap == 8) m(i, j) += 16.0 * 125.0 / 1024.0;                    // pipeline stages
      const bool ring_step = (i % 8 < 6) ? (j == i + 2) : (j == i - 6);  // data-parallel ring
      if (ring_step) m(i, j) += 741.0 / 1024.0;
      if (gap == 24) m(i, j) += 96.0 / 1024.0;  // embedding sync, first <-> last stage
    }
  return m;
}

// Expert popularity: Dirichlet(alpha), or Zipf(s) over a random ranking of the experts.
std::vector<double> expert_popularity(const GeneratorOptions& opt, int experts, Rng& rng) {
  if (opt.popularity == Popularity::dirichlet) return rng.dirichlet(experts, opt.alpha);
  std::vector<int> rank = rng.permutation(experts);
  std::vector<double> p(static_cast<std::size_t>(experts));
  for (int e = 0; e < experts; ++e)
    p[static_cast<std::size_t>(e)] = std::pow(rank[static_cast<std::size_t>(e)] + 1.0, -opt.zipf_s);
  return p;
}

// Draws one expert from the cumulative popularity, avoiding `taken`. Rejection first (cheap when
// no expert dominates), then an exact scan over the remaining mass.
int draw_expert(const std::vector<double>& cumulative, const std::vector<int>& taken, Rng& rng) {
  const auto is_taken = [&](int e) {
    return std::find(taken.begin(), taken.end(), e) != taken.end();
  };
  const double total = cumulative.back();
  for (int attempt = 0; attempt < 16; ++attempt) {
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), rng.uniform() * total);
    const int e = static_cast<int>(std::min<std::ptrdiff_t>(
        it - cumulative.begin(), static_cast<std::ptrdiff_t>(cumulative.size()) - 1));
    if (!is_taken(e)) return e;
  }
  std::vector<double> mass(cumulative.size());
  double remaining = 0.0;
  for (std::size_t e = 0; e < cumulative.size(); ++e) {
    const double w = cumulative[e] - (e == 0 ? 0.0 : cumulative[e - 1]);
    remaining += (mass[e] = is_taken(static_cast<int>(e)) ? 0.0 : w);
  }
  double u = rng.uniform() * remaining;
  for (std::size_t e = 0; e < mass.size(); ++e) {
    if (mass[e] > 0.0 && u < mass[e]) return static_cast<int>(e);
    u -= mass[e];
  }
  for (std::size_t e = mass.size(); e-- > 0;)  // rounding left u past the end: last free expert
    if (mass[e] > 0.0) return static_cast<int>(e);
  return 0;
}

}  // namespace

const std::vector<std::string>& generator_kinds() {
  static const std::vector<std::string> kinds = {"synthetic", "gpt",  "moe",
                                                 "alltoall",  "perm", "sparse"};
  return kinds;
}

Matrix normalize_max_line(const Matrix& m) {
  const double peak = m.max_line_sum();
  return peak > 0.0 ? m.scaled(1.0 / peak) : m;
}

Matrix generate_synthetic(const GeneratorOptions& opt, std::uint64_t seed) {
  const int n = ports_or(opt, 100);
  check_ports(n, 1);
  require(opt.large_flows >= 0 && opt.small_flows >= 0 && opt.large_flows + opt.small_flows >= 1 &&
              opt.large_flows + opt.small_flows <= 4096,
          "flows", "large and small flow counts >= 0 with 1 <= large + small <= 4096");
  require(opt.large_share >= 0.0 && opt.large_share <= 1.0, "large-share", "a share in [0, 1]");
  const double stddev = checked_noise(opt, 0.003);
  Rng rng(seed);
  Matrix m(n);
  for (int f = 0; f < opt.large_flows; ++f)
    add_random_permutation(m, rng, opt.large_share / opt.large_flows);
  for (int f = 0; f < opt.small_flows; ++f)
    add_random_permutation(m, rng, (1.0 - opt.large_share) / opt.small_flows);
  if (stddev > 0.0) m = add_support_noise(m, stddev, rng);
  return normalize_max_line(m);
}

Matrix generate_gpt(const GeneratorOptions& opt, std::uint64_t seed) {
  const int n = ports_or(opt, 32);
  check_ports(n, 32);
  require(n % 32 == 0, "n", "a multiple of 32 (block-diagonal copies of the 32-GPU job)");
  const double stddev = checked_noise(opt, 0.0);
  const Matrix clean = normalize_max_line(gpt32_raw());
  Rng rng(seed);
  Matrix m(n);
  for (int block = 0; block < n / 32; ++block) {
    Matrix b = clean;
    if (stddev > 0.0) {  // the paper's noisy variant: |entry + N(0, std)|, new noise per copy
      for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j)
          if (b(i, j) > 0.0) b(i, j) = std::abs(b(i, j) + rng.normal(0.0, stddev));
    }
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) m(block * 32 + i, block * 32 + j) = b(i, j);
  }
  return normalize_max_line(m);
}

Matrix generate_moe(const GeneratorOptions& opt, std::uint64_t seed) {
  const int n = ports_or(opt, 64);
  check_ports(n, 2);
  const int experts = opt.experts == 0 ? n : opt.experts;
  require(experts >= n && experts % n == 0 && experts <= 65536, "experts",
          "a multiple of the number of ranks, at most 65536");
  require(opt.tokens >= 1 && opt.tokens <= 1'000'000, "tokens", "tokens per rank in [1, 1000000]");
  require(opt.top_k >= 1 && opt.top_k <= experts, "top-k", "an integer in [1, experts]");
  require(std::isfinite(opt.alpha) && opt.alpha > 0.0, "alpha", "a Dirichlet concentration > 0");
  require(std::isfinite(opt.zipf_s) && opt.zipf_s >= 0.0, "zipf", "a Zipf exponent >= 0");
  Rng rng(seed);
  const std::vector<double> popularity = expert_popularity(opt, experts, rng);
  std::vector<double> cumulative(popularity.size());
  std::partial_sum(popularity.begin(), popularity.end(), cumulative.begin());
  const int per_rank = experts / n;  // experts e*per_rank .. e*per_rank+per_rank-1 live on rank e
  Matrix m(n);
  std::vector<int> taken;
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < opt.tokens; ++t) {
      taken.clear();
      for (int k = 0; k < opt.top_k; ++k) taken.push_back(draw_expert(cumulative, taken, rng));
      for (int e : taken)
        if (e / per_rank != i) m(i, e / per_rank) += 1.0;  // local experts need no network
    }
  return normalize_max_line(m);
}

Matrix generate_alltoall(const GeneratorOptions& opt) {
  const int n = ports_or(opt, 64);
  check_ports(n, 2);
  Matrix m(n, 1.0);
  for (int i = 0; i < n; ++i) m(i, i) = 0.0;
  return normalize_max_line(m);
}

Matrix generate_permutations(const GeneratorOptions& opt, std::uint64_t seed) {
  const int n = ports_or(opt, 32);
  check_ports(n, 1);
  require(opt.permutations >= 1 && opt.permutations <= 4096, "permutations",
          "a count in [1, 4096]");
  Rng rng(seed);
  Matrix m(n);
  for (int k = 0; k < opt.permutations; ++k)  // weights in (0, 1]: never a zero permutation
    add_random_permutation(m, rng, 1.0 - rng.uniform());
  return normalize_max_line(m);
}

Matrix generate_sparse(const GeneratorOptions& opt, std::uint64_t seed) {
  const int n = ports_or(opt, 64);
  check_ports(n, 2);
  require(opt.density > 0.0 && opt.density <= 1.0, "density", "a probability in (0, 1]");
  Rng rng(seed);
  Matrix m(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && rng.uniform() < opt.density) m(i, j) = 1.0 - rng.uniform();
  return normalize_max_line(m);
}

Matrix generate_matrix(const std::string& kind, const GeneratorOptions& opt, std::uint64_t seed) {
  if (kind == "synthetic") return generate_synthetic(opt, seed);
  if (kind == "gpt") return generate_gpt(opt, seed);
  if (kind == "moe") return generate_moe(opt, seed);
  if (kind == "alltoall") return generate_alltoall(opt);
  if (kind == "perm") return generate_permutations(opt, seed);
  if (kind == "sparse") return generate_sparse(opt, seed);
  throw InputError("", "kind",
                   "one of synthetic, gpt, moe, alltoall, perm, sparse (got '" + kind + "')");
}

}  // namespace flux::matrix
