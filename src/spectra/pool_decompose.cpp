#include "spectra/pool_decompose.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "spectra/bottleneck_decompose.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/lp_weights.hpp"

namespace flux::spectra {
namespace {

// Whether every non-zero of `s` lies on one of `perms` (the LP's precondition).
bool covers(const Support& s, const std::vector<matrix::Permutation>& perms) {
  std::vector<char> hit(static_cast<std::size_t>(s.size()), 0);
  for (const matrix::Permutation& p : perms)
    for (int i = 0; i < s.n; ++i)
      if (const int e = s.find(i, p[static_cast<std::size_t>(i)]); e >= 0)
        hit[static_cast<std::size_t>(e)] = 1;
  return std::all_of(hit.begin(), hit.end(), [](char h) { return h != 0; });
}

}  // namespace

Support round_up_geometric(const Support& s, int levels) {
  Support q = s;
  if (s.size() == 0) return q;
  const auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
  const double step = std::log(*hi / *lo) / levels;
  if (!(step > 0.0)) return q;
  for (double& v : q.value) {
    const double k = std::ceil(std::log(v / *lo) / step - 1e-9);
    v = std::clamp(*lo * std::exp(k * step), v, *hi);
  }
  return q;
}

matrix::Decomposition pool_decompose(const Support& s, const matrix::Decomposition& greedy,
                                     const PoolOptions& opt) {
  const matrix::Decomposition extra = bottleneck_decompose(
      round_up_geometric(s, opt.levels), {.delta = opt.delta, .max_permutations = opt.max_pool});
  if (extra.perms.empty()) return {};
  matrix::Decomposition pool = greedy;
  pool.perms.insert(pool.perms.end(), extra.perms.begin(), extra.perms.end());
  if (!reweigh_for_least_total(s, pool, true)) return {};
  const std::size_t floor = greedy.perms.size();
  const std::size_t batch =
      std::max<std::size_t>(1, (pool.perms.size() - std::min(pool.perms.size(), floor)) /
                                   static_cast<std::size_t>(opt.rounds));
  matrix::Decomposition best;
  double best_length = std::numeric_limits<double>::infinity();
  while (true) {
    if (const double m = lpt_equalized_length(pool.weights, opt.switches, opt.delta);
        m < best_length) {
      best = pool;
      best_length = m;
    }
    if (pool.perms.size() <= floor) break;
    matrix::Decomposition next = pool;  // without its lightest permutations
    next.perms.resize(next.perms.size() - std::min(batch, next.perms.size() - 1));
    next.weights.resize(next.perms.size());
    if (!covers(s, next.perms) || !reweigh_for_least_total(s, next, true)) break;
    pool = std::move(next);
  }
  return best;
}

}  // namespace flux::spectra
