#include "matrix_baselines/baseline.hpp"

#include "matrix/algorithm.hpp"
#include "matrix_baselines/integer_demand.hpp"
#include "matrix_baselines/less_split.hpp"
#include "matrix_baselines/schedule_helpers.hpp"

namespace flux::matrix_baselines {

std::vector<Matrix> baseline_parts(const matrix::MatrixProblem& p,
                                   const matrix::MatrixRunOptions& opt) {
  check_problem(p);
  Rng rng(opt.seed);
  std::vector<Matrix> parts = less_split(p.time, p.switches, rng);
  apportion_whole_units(parts, p.time, p.byte_time);
  return parts;
}

matrix::MatrixResult less_baseline(const matrix::MatrixProblem& p,
                                   const matrix::MatrixRunOptions& opt,
                                   const PartDecomposer& decomposer) {
  return play_parts(baseline_parts(p, opt), p, decomposer);
}

matrix::MatrixResult play_parts(const std::vector<Matrix>& parts, const matrix::MatrixProblem& p,
                                const PartDecomposer& decomposer) {
  matrix::MatrixSchedule s;
  int permutations = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const matrix::Decomposition dec = decompose_part(parts[k], decomposer, p.delta);
    (void)play_serially(dec, parts[k], static_cast<int>(k), p.delta, s.slots);
    permutations += static_cast<int>(dec.perms.size());
  }
  const bool spectra = decomposer.name == "spectra";
  return make_result(spectra ? "baseline" : "baseline-" + decomposer.name, p, std::move(s),
                     permutations);
}

}  // namespace flux::matrix_baselines
