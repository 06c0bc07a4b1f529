#include "fabric_baselines/traffic.hpp"

#include <algorithm>

namespace flux {

namespace {

// A zero-byte send still needs its circuit: it counts as one byte.
void add(Matrix& m, const Task& t) {
  if (t.kind == TaskKind::send) m(t.src, t.dst) += std::max(t.bytes, 1.0);
}

}  // namespace

Matrix circuit_demand(const Workload& w) {
  Matrix m(w.gpus);
  for (const Task& t : w.tasks) add(m, t);
  return m;
}

Matrix circuit_demand(const Workload& w, const std::vector<int>& tasks) {
  Matrix m(w.gpus);
  for (int t : tasks) add(m, w.tasks[static_cast<std::size_t>(t)]);
  return m;
}

Matrix symmetrized(const Matrix& d) {
  Matrix s(d.n());
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) s(i, j) = std::max(d(i, j), d(j, i));
  return s;
}

}  // namespace flux
