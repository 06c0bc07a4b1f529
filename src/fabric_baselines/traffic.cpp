#include "fabric_baselines/traffic.hpp"

#include <algorithm>
#include <map>

namespace flux::fabric_baselines {

namespace {

// A zero-byte send still needs its circuit: it counts as one byte.
double demand_bytes(const workload::Task& t) {
  return std::max(t.bytes, 1.0);
}

void add(Matrix& m, const workload::Task& t) {
  if (t.kind == workload::TaskKind::send) m(t.src, t.dst) += demand_bytes(t);
}

}  // namespace

Matrix circuit_demand(const workload::Workload& w) {
  Matrix m(w.gpus);
  for (const workload::Task& t : w.tasks) add(m, t);
  return m;
}

Matrix circuit_demand(const workload::Workload& w, const std::vector<int>& tasks) {
  Matrix m(w.gpus);
  for (int t : tasks) add(m, w.tasks[static_cast<std::size_t>(t)]);
  return m;
}

DemandEntries circuit_demand_entries(const workload::Workload& w, const std::vector<int>& tasks) {
  std::map<std::pair<int, int>, double> sum;
  for (int i : tasks) {
    const workload::Task& t = w.tasks[static_cast<std::size_t>(i)];
    if (t.kind == workload::TaskKind::send) sum[{t.src, t.dst}] += demand_bytes(t);
  }
  DemandEntries out;
  out.reserve(sum.size());
  for (const auto& [pair, bytes] : sum) out.emplace_back(pair.first, pair.second, bytes);
  return out;
}

void write_demand(std::span<double> m, int n, const DemandEntries& entries, bool symmetric) {
  const auto at = [&](int i, int j) -> double& {
    return m[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
             static_cast<std::size_t>(j)];
  };
  for (const auto& [from, to, bytes] : entries) {
    if (!symmetric) {
      at(from, to) = bytes;
      continue;
    }
    // Entries are positive: the max with the 0 of an absent entry keeps them.
    at(from, to) = std::max(at(from, to), bytes);
    at(to, from) = std::max(at(to, from), bytes);
  }
}

std::vector<std::pair<int, int>> demand_places(const DemandEntries& entries, bool symmetric) {
  std::vector<std::pair<int, int>> at;
  at.reserve(entries.size() * (symmetric ? 2 : 1));
  for (const auto& [from, to, bytes] : entries) {
    at.emplace_back(from, to);
    if (symmetric) at.emplace_back(to, from);
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  return at;
}

Matrix dense(int n, const DemandEntries& entries) {
  Matrix m(n);
  write_demand({m.row(0), m.data().size()}, n, entries, false);
  return m;
}

Matrix symmetrized(int n, const DemandEntries& entries) {
  Matrix m(n);
  write_demand({m.row(0), m.data().size()}, n, entries, true);
  return m;
}

Matrix symmetrized(const Matrix& d) {
  // Tile by tile, so that the transposed reads stay in cache: walking a column of a
  // 1,024-GPU matrix misses the cache on every entry.
  constexpr int kTile = 64;
  const int n = d.n();
  Matrix s(n);
  for (int i0 = 0; i0 < n; i0 += kTile)
    for (int j0 = 0; j0 < n; j0 += kTile)
      for (int i = i0; i < std::min(n, i0 + kTile); ++i) {
        const double* in = d.row(i);
        double* out = s.row(i);
        for (int j = j0; j < std::min(n, j0 + kTile); ++j) out[j] = std::max(in[j], d(j, i));
      }
  return s;
}

}  // namespace flux::fabric_baselines
