#include "matrix_baselines/naive.hpp"

#include "matrix/algorithm.hpp"
#include "matrix_baselines/schedule_helpers.hpp"

namespace flux {

MatrixResult naive_schedule(const MatrixProblem& p, const PartDecomposer& decomposer) {
  check_problem(p);
  const Matrix share = p.time.scaled(1.0 / p.switches);
  const Decomposition dec = decompose_part(share, decomposer, p.delta);
  MatrixSchedule s;
  for (int k = 0; k < p.switches; ++k) (void)play_serially(dec, share, k, p.delta, s.slots);
  return make_result("naive", p, std::move(s), static_cast<int>(dec.perms.size()));
}

}  // namespace flux
