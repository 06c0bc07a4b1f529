#include "matrix_baselines/solstice.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "matrix/algorithm.hpp"
#include "matrix_baselines/integer_demand.hpp"
#include "matrix_baselines/schedule_helpers.hpp"
#include "matrix_baselines/threshold_matching.hpp"

namespace flux::matrix_baselines {
namespace {

// Halves the threshold until a perfect matching on the entries >= t exists. At t = 1 one always
// exists (equal line sums), so reaching 1 without one means the invariant is broken.
void lower_until_perfect(ThresholdMatching& matching, std::int64_t t) {
  t = std::max<std::int64_t>(t, 1);
  while (!matching.set_threshold(t)) {
    if (t == 1) throw std::logic_error("solstice: stuffed matrix has no perfect matching");
    t /= 2;
  }
}

}  // namespace

matrix::Decomposition solstice_decomposition(const Matrix& d, std::uint64_t seed,
                                             double byte_time) {
  IntegerDemand r = quantize_demand(d, byte_time);
  Rng rng(seed);
  quick_stuff(r, {.rng = &rng});
  matrix::Decomposition dec;
  std::int64_t left = line_sum(r);
  if (left == 0) return dec;
  const std::int64_t largest = *std::max_element(r.a.begin(), r.a.end());
  ThresholdMatching matching(r);
  lower_until_perfect(matching, std::bit_floor(static_cast<std::uint64_t>(largest)));
  while (left > 0) {
    const auto& perm = matching.row_to_col();
    const std::int64_t w = peel_permutation(r, perm);
    dec.perms.push_back(perm);
    dec.weights.push_back(static_cast<double>(w) * r.quantum);
    left -= w;
    if (left > 0 && !matching.repair()) lower_until_perfect(matching, matching.threshold() / 2);
  }
  sort_by_weight(dec);
  return dec;
}

matrix::MatrixResult solstice_schedule(const matrix::MatrixProblem& p,
                                       const matrix::MatrixRunOptions& opt) {
  check_problem(p);
  check_schedule_size(p.time, "solstice");
  return lpt_schedule("solstice", solstice_decomposition(p.time, opt.seed, p.byte_time), p);
}

}  // namespace flux::matrix_baselines
