// Matrix baselines speed: every baseline at n = 100 (the synthetic
// benchmark, s = 4, δ = 0.02) and exact BvN on a dense n = 512 matrix (target <= 5 s).
// Run: build/flux_bench --benchmark_filter=Baseline
#include <benchmark/benchmark.h>

#include "core/rng.hpp"
#include "matrix/generators.hpp"
#include "matrix_baselines/bvn.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux {
namespace {

// Uniform (0, 1) entries everywhere: n^2 non-zeros, so BvN needs ~n^2 - 2n + 2 permutations.
Matrix dense(int n) {
  Rng rng(42);
  Matrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d(i, j) = rng.uniform(1e-3, 1.0);
  return d;
}

void BM_BaselineBvnDecomposeDense(benchmark::State& st) {
  const Matrix d = dense(static_cast<int>(st.range(0)));
  int k = 0;
  for (auto _ : st) {
    double total = 0.0;
    const matrix_baselines::BvnStats stats =
        matrix_baselines::bvn_decompose(d, [&](const std::vector<int>&, double w) { total += w; });
    benchmark::DoNotOptimize(total);
    k = stats.permutations;
  }
  st.counters["K"] = k;
}
BENCHMARK(BM_BaselineBvnDecomposeDense)->Arg(128)->Arg(512)->Unit(benchmark::kMillisecond);

void BM_BaselineAlgorithm(benchmark::State& st, const std::string& name) {
  const matrix_schedulers::MatrixAlgorithm* a = matrix_schedulers::find_matrix_algorithm(name);
  const matrix::MatrixProblem p{
      .time = matrix::generate_synthetic({}, 1), .switches = 4, .delta = 0.02};
  int k = 0;
  for (auto _ : st) {
    const matrix::MatrixResult r = a->run(p, {.seed = 1});
    k = r.permutations;
    benchmark::DoNotOptimize(r.schedule.makespan);
  }
  st.counters["K"] = k;
}

const bool registered = [] {
  for (const char* name : {"baseline", "baseline-eclipse", "eclipse", "bvn", "solstice", "naive",
                           "per-port", "baseline-per-port", "spectra-noeq", "spectra-eclipse"})
    benchmark::RegisterBenchmark((std::string("BM_BaselineSynthetic100/") + name).c_str(),
                                 BM_BaselineAlgorithm, std::string(name))
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace flux
