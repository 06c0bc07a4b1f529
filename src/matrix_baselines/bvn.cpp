#include "matrix_baselines/bvn.hpp"

#include <algorithm>
#include <stdexcept>

#include "matrix/algorithm.hpp"
#include "matrix_baselines/integer_demand.hpp"
#include "matrix_baselines/schedule_helpers.hpp"
#include "matrix_baselines/threshold_matching.hpp"

namespace flux::matrix_baselines {
namespace {

Matrix to_matrix(const IntegerDemand& m) {
  Matrix out(m.n);
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j) out(i, j) = static_cast<double>(m.at(i, j)) * m.quantum;
  return out;
}

}  // namespace

BvnStats bvn_decompose(const Matrix& d, const PermutationSink& sink, double byte_time) {
  IntegerDemand r = quantize_demand(d, byte_time);
  quick_stuff(r);
  BvnStats stats;
  stats.stuffed = to_matrix(r);
  std::int64_t left = line_sum(r);
  if (left == 0) return stats;
  ThresholdMatching matching(r);
  // Birkhoff: a non-zero matrix with equal line sums always has a perfect matching on its support.
  if (!matching.set_threshold(1))
    throw std::logic_error("bvn: stuffed matrix has no perfect matching");
  while (left > 0) {
    const auto& perm = matching.row_to_col();
    const std::int64_t w = peel_permutation(r, perm);
    sink(perm, static_cast<double>(w) * r.quantum);
    ++stats.permutations;
    left -= w;
    if (left > 0 && !matching.repair())
      throw std::logic_error("bvn: lost the perfect matching on an equal-line-sum matrix");
  }
  return stats;
}

matrix::Decomposition bvn_decomposition(const Matrix& d, double byte_time) {
  matrix::Decomposition dec;
  (void)bvn_decompose(
      d,
      [&](const std::vector<int>& perm, double w) {
        dec.perms.push_back(perm);
        dec.weights.push_back(w);
      },
      byte_time);
  sort_by_weight(dec);
  return dec;
}

matrix::MatrixResult bvn_schedule(const matrix::MatrixProblem& p) {
  check_problem(p);
  check_schedule_size(p.time, "bvn");
  return lpt_schedule("bvn", bvn_decomposition(p.time, p.byte_time), p);
}

}  // namespace flux::matrix_baselines
