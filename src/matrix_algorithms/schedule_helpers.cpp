#include "matrix_algorithms/schedule_helpers.hpp"

#include "spectra/spectra.hpp"

namespace flux {

MatrixResult lpt_schedule(const std::string& name, const Decomposition& dec,
                          const MatrixProblem& p) {
  MatrixResult r = schedule_decomposition(dec, p, /*equalize=*/false);
  r.schedule.algorithm = name;
  r.permutations = static_cast<int>(dec.perms.size());
  return r;
}

double play_serially(const Decomposition& dec, const Matrix& served, int sw, double delta,
                     std::vector<Slot>& out) {
  double t = 0.0;
  for (std::size_t k = 0; k < dec.perms.size(); ++k) {
    Slot slot{
        .sw = sw, .start = t + delta, .end = t + delta + dec.weights[k], .perm = dec.perms[k]};
    for (int i = 0; i < served.n(); ++i) {
      int& j = slot.perm[static_cast<std::size_t>(i)];
      if (j >= 0 && served(i, j) <= 0.0) j = -1;
    }
    t = slot.end;
    out.push_back(std::move(slot));
  }
  return t;
}

MatrixResult make_result(const std::string& name, const MatrixProblem& p, MatrixSchedule schedule,
                         int permutations) {
  schedule.algorithm = name;
  schedule.n = p.time.n();
  schedule.switches = p.switches;
  schedule.delta = p.delta;
  schedule.makespan = schedule_end(schedule);
  MatrixResult r;
  r.schedule = std::move(schedule);
  r.permutations = permutations;
  return r;
}

}  // namespace flux
