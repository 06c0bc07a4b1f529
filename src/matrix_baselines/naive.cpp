#include "matrix_baselines/naive.hpp"

#include "matrix/algorithm.hpp"
#include "matrix_baselines/schedule_helpers.hpp"

namespace flux::matrix_baselines {

matrix::MatrixResult naive_schedule(const matrix::MatrixProblem& p,
                                    const PartDecomposer& decomposer) {
  check_problem(p);
  const Matrix share = p.time.scaled(1.0 / p.switches);
  const matrix::Decomposition dec = decompose_part(share, decomposer, p.delta);
  matrix::MatrixSchedule s;
  for (int k = 0; k < p.switches; ++k) (void)play_serially(dec, share, k, p.delta, s.slots);
  return make_result("naive", p, std::move(s), static_cast<int>(dec.perms.size()));
}

}  // namespace flux::matrix_baselines
