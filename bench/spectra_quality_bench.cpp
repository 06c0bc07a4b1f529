// Spectra quality: mean makespan / all-stop lower bound (max(LB1, LB2, LB3)) of `spectra-ref`
// and `spectra` on every generator (and the hard families: sparse n = 50 density 0.2, synthetic
// n = 64 with 8 large + 24 small flows), over s in {4, 16} x delta in {0.01, 0.02, 0.04, 0.08} x 3
// seeds, plus the case n = 32, 7 weighted permutations, s = 8. Reported as counters;
// the time column is the cost of the whole grid and means nothing on its own.
// Run: build/bench/flux_bench --benchmark_filter=SpectraQuality
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "matrix/bounds.hpp"
#include "matrix/generators.hpp"
#include "spectra/spectra.hpp"

namespace flux {
namespace {

struct Workload {
  std::string name, kind;
  matrix::GeneratorOptions opt;
};

std::vector<Workload> workloads() {
  matrix::GeneratorOptions noisy;
  noisy.noise = 0.003;
  matrix::GeneratorOptions n64;
  n64.n = 64;
  matrix::GeneratorOptions wide = n64;  // wide flows: 8 large + 24 small per port
  wide.large_flows = 8;
  wide.small_flows = 24;
  matrix::GeneratorOptions sparse50;
  sparse50.n = 50;
  sparse50.density = 0.2;
  return {{"synthetic", "synthetic", {}},
          {"gpt32", "gpt", {}},
          {"gpt32-noisy", "gpt", noisy},
          {"moe64", "moe", n64},
          {"alltoall64", "alltoall", n64},
          {"perm32", "perm", {}},
          {"sparse64", "sparse", n64},
          {"sparse50-d0.2", "sparse", sparse50},
          {"synthetic64-wide", "synthetic", wide}};
}

void run_grid(benchmark::State& st, const Workload& w, const std::vector<int>& switches) {
  double ref = 0, imp = 0, imp2 = 0, gain = 0, better = 0;
  int cells = 0;
  for (auto _ : st) {
    ref = imp = imp2 = gain = better = 0;
    cells = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      matrix::MatrixProblem p;
      p.time = generate_matrix(w.kind, w.opt, seed);
      for (int s : switches)
        for (double delta : {0.01, 0.02, 0.04, 0.08}) {
          p.switches = s;
          p.delta = delta;
          const matrix::MatrixBounds bounds = matrix::matrix_lower_bounds(p.time, s, delta);
          const double lb = bounds.all_stop;
          const double a = spectra::spectra_reference(p).schedule.makespan;
          const double b = spectra::spectra_improved(p).schedule.makespan;
          ref += a / lb;
          imp += b / lb;
          imp2 += b / bounds.bound;
          gain += lb / bounds.bound;
          better += b < a - 1e-12;
          ++cells;
        }
    }
  }
  st.counters["ref/LB"] = ref / cells;
  st.counters["spectra/LB"] = imp / cells;
  st.counters["spectra/LB12"] = imp2 / cells;  // against max(LB1, LB2) only
  st.counters["LB3/LB12"] = gain / cells;
  st.counters["cells_better"] = better / cells;
}

void BM_SpectraQuality(benchmark::State& st) {
  const Workload w = workloads()[static_cast<std::size_t>(st.range(0))];
  st.SetLabel(w.name);
  run_grid(st, w, {4, 16});
}
BENCHMARK(BM_SpectraQuality)->DenseRange(0, 8)->Iterations(1)->Unit(benchmark::kMillisecond);

// The example: n = 32, 7 random weighted permutations, s = 8.
void BM_SpectraQualityPermS8(benchmark::State& st) {
  st.SetLabel("perm32 s=8");
  run_grid(st, {"perm32", "perm", {}}, {8});
}
BENCHMARK(BM_SpectraQualityPermS8)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
