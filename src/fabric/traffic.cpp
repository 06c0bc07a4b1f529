#include "fabric/traffic.hpp"

#include <algorithm>

#include "workload/traffic_views.hpp"

namespace flux {

namespace {

void add(Matrix& m, const Task& t) {
  if (t.kind == TaskKind::send) m(t.src, t.dst) += t.bytes;
}

}  // namespace

Matrix traffic_matrix(const Workload& w) {
  return workload_demand(w).matrix;
}

Matrix traffic_matrix(const Workload& w, const std::vector<int>& tasks) {
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
