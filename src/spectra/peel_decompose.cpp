#include "spectra/peel_decompose.hpp"

#include <algorithm>
#include <optional>

#include "spectra/decompose.hpp"
#include "spectra/kempe_decompose.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/weighted_matching.hpp"

namespace flux::spectra {
namespace {

// Demand left below this (relative to the largest entry) is round-off of the subtractions.
constexpr double kResidualTolerance = 1e-12;

// Peels up to `count` permutations of weight `cap` off `residual` (lowered in place).
matrix::Decomposition peel(const Support& s, double cap, int count, std::vector<double>& residual) {
  WeightedMatcher matcher(s);
  std::vector<double> gain(residual.size());
  matrix::Decomposition dec;
  for (int k = 0; k < count; ++k) {
    for (std::size_t e = 0; e < residual.size(); ++e) gain[e] = std::min(residual[e], cap);
    auto [p, served] = matcher.best(gain);
    if (p.empty() || served <= 0.0) break;
    for (int i = 0; i < s.n; ++i)
      if (const int e = s.find(i, p[static_cast<std::size_t>(i)]); e >= 0)
        residual[static_cast<std::size_t>(e)] =
            std::max(0.0, residual[static_cast<std::size_t>(e)] - cap);
    dec.perms.push_back(std::move(p));
    dec.weights.push_back(cap);
  }
  return dec;
}

void append(matrix::Decomposition& to, const matrix::Decomposition& part) {
  to.perms.insert(to.perms.end(), part.perms.begin(), part.perms.end());
  to.weights.insert(to.weights.end(), part.weights.begin(), part.weights.end());
}

// `dec` re-weighted for the least total, sorted, zeros dropped; nothing if the LP fails.
std::optional<matrix::Decomposition> least_total(const Support& s, matrix::Decomposition dec) {
  if (!reweigh_for_least_total(s, dec, true)) return std::nullopt;
  return dec;
}

}  // namespace

std::vector<matrix::Decomposition> peel_decompose(const Support& s, double cap, int count) {
  if (s.size() == 0 || cap <= 0.0) return {};
  std::vector<double> residual = s.value;
  matrix::Decomposition dec = peel(s, cap, count, residual);
  const double largest = *std::max_element(s.value.begin(), s.value.end());
  // The residual's support, entries within round-off of zero dropped.
  const Support rest_support = residual_support(s, residual, kResidualTolerance * largest);
  std::optional<matrix::Decomposition> recoloured;
  if (rest_support.size() > 0) {
    const matrix::Decomposition tail = spectra_decompose(rest_support);
    if (const matrix::Decomposition k = kempe_decompose(rest_support, tail); !k.perms.empty()) {
      recoloured = dec;
      append(*recoloured, k);
    }
    append(dec, tail);
  }
  // Entries dropped as round-off are covered up to it; repair makes coverage exact.
  (void)repair_coverage(s, dec.perms, dec.weights);
  std::vector<matrix::Decomposition> out;
  std::optional<matrix::Decomposition> least = least_total(s, dec);
  sort_by_weight(dec);
  drop_zero_weights(dec);
  out.push_back(std::move(dec));
  if (least) out.push_back(std::move(*least));
  if (recoloured) {
    (void)repair_coverage(s, recoloured->perms, recoloured->weights);
    if (std::optional<matrix::Decomposition> r = least_total(s, std::move(*recoloured)))
      out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace flux::spectra
