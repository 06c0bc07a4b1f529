#include "matrix_baselines/schedule_helpers.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "matrix/switch_plan.hpp"

namespace flux::matrix_baselines {

namespace {

// The permutations that serve some demand. Stuffing can fill a whole permutation with padding
// only; playing it would cost δ and carry nothing.
matrix::Decomposition carrying_demand(const matrix::Decomposition& dec, const Matrix& d) {
  matrix::Decomposition out;
  for (std::size_t k = 0; k < dec.perms.size(); ++k)
    for (int i = 0; i < d.n(); ++i)
      if (d(i, dec.perms[k][static_cast<std::size_t>(i)]) > 0.0) {
        out.perms.push_back(dec.perms[k]);
        out.weights.push_back(dec.weights[k]);
        break;
      }
  return out;
}

}  // namespace

matrix::MatrixResult lpt_schedule(const std::string& name, const matrix::Decomposition& dec,
                                  const matrix::MatrixProblem& p) {
  const matrix::Decomposition used = carrying_demand(dec, p.time);
  matrix::MatrixResult r = schedule_decomposition(used, p, /*equalize=*/false);
  r.schedule.algorithm = name;
  r.permutations = static_cast<int>(used.perms.size());
  return r;
}

double play_serially(const matrix::Decomposition& dec, const Matrix& served, int sw, double delta,
                     std::vector<matrix::Slot>& out) {
  double t = 0.0;
  for (std::size_t k = 0; k < dec.perms.size(); ++k) {
    matrix::Slot slot{
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

void check_schedule_size(const Matrix& d, const std::string& algorithm) {
  const double n = d.n();
  const double perms = static_cast<double>(d.nonzeros()) + 2.0 * n;
  const double gib = perms * n * sizeof(int) / static_cast<double>(1 << 30);
  if (perms * n > static_cast<double>(1 << 28))
    throw InputError("", "algorithm",
                     fmt::format("a matrix small enough for {} (up to {:.0f} permutations of {} "
                                 "ports would need ~{:.1f} GiB)",
                                 algorithm, perms, n, gib));
}

namespace {

bool serves_demand(const matrix::Slot& slot, const Matrix& d) {
  for (int i = 0; i < d.n(); ++i) {
    const int j = slot.perm[static_cast<std::size_t>(i)];
    if (j >= 0 && d(i, j) > 0.0) return true;
  }
  return false;
}

}  // namespace

void whole_byte_slots(matrix::MatrixSchedule& s, const matrix::MatrixProblem& p) {
  if (!(p.byte_time > 0.0) || s.slots.empty()) return;
  std::vector<std::size_t> order(s.slots.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const matrix::Slot &x = s.slots[a], &y = s.slots[b];
    return x.sw != y.sw ? x.sw < y.sw : x.start < y.start;
  });
  std::vector<matrix::Slot> out;
  int sw = -1;
  double old_end = 0.0, new_end = 0.0;
  for (std::size_t k : order) {
    matrix::Slot slot = s.slots[k];
    if (slot.sw != sw) sw = slot.sw, old_end = new_end = 0.0;
    const double gap = slot.start - old_end, length = slot.end - slot.start;
    old_end = slot.end;
    if (length <= 0.0 || !serves_demand(slot, p.time)) continue;  // its gap and time go
    slot.start = new_end + gap;
    slot.end = slot.start + std::max(length, p.byte_time);
    new_end = slot.end;
    out.push_back(std::move(slot));
  }
  s.slots = std::move(out);
  s.makespan = schedule_end(s);
}

matrix::MatrixResult make_result(const std::string& name, const matrix::MatrixProblem& p,
                                 matrix::MatrixSchedule schedule, int permutations) {
  schedule.algorithm = name;
  schedule.n = p.time.n();
  schedule.switches = p.switches;
  schedule.delta = p.delta;
  schedule.makespan = schedule_end(schedule);
  matrix::MatrixResult r;
  r.schedule = std::move(schedule);
  r.permutations = permutations;
  return r;
}

}  // namespace flux::matrix_baselines
