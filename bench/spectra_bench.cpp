// Spectra speed: the whole pipeline at n = 100 (16 flows per port, s = 16) and n = 1024 (64
// non-zeros per port), then per DECOMPOSE kernel on four instances (pipeline and DECOMPOSE alone),
// the LP re-weighting, and the long row reduction variant (DecomposeOptions::reduction_steps):
// its speed and its quality against the default on every generator.
// Run: build/flux_bench --benchmark_filter=Spectra
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "matrix/bounds.hpp"
#include "matrix/generators.hpp"
#include "spectra/decompose.hpp"
#include "spectra/lp_weights.hpp"
#include "spectra/spectra.hpp"
#include "spectra/support.hpp"

namespace flux {
namespace {

// n = 100: the paper's synthetic benchmark (4 large + 12 small flows, noise 0.003).
// n = 1024: 16 large + 48 small flows, i.e. up to 64 non-zeros per port.
const Matrix& demand(int n) {
  static const Matrix small = matrix::generate_synthetic({}, 1);
  static const Matrix large = [] {
    matrix::GeneratorOptions opt;
    opt.n = 1024;
    opt.large_flows = 16;
    opt.small_flows = 48;
    return matrix::generate_synthetic(opt, 1);
  }();
  return n == 100 ? small : large;
}

matrix::MatrixProblem problem(int n) {
  matrix::MatrixProblem p;
  p.time = demand(n);
  p.switches = 16;
  p.delta = 0.01;
  return p;
}

void BM_SpectraRefPipeline(benchmark::State& st) {
  const matrix::MatrixProblem p = problem(static_cast<int>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(spectra::spectra_reference(p));
  st.counters["K"] = spectra::spectra_reference(p).permutations;
}
BENCHMARK(BM_SpectraRefPipeline)->Arg(100)->Arg(1024)->Unit(benchmark::kMillisecond);

void BM_SpectraImprovedPipeline(benchmark::State& st) {
  const matrix::MatrixProblem p = problem(static_cast<int>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(spectra::spectra_improved(p));
}
BENCHMARK(BM_SpectraImprovedPipeline)->Arg(100)->Arg(1024)->Unit(benchmark::kMillisecond);

// DECOMPOSE alone on the instances, one benchmark per kernel so that ratios are taken in
// one run: 0 = synthetic n = 100, 1 = synthetic n = 1024 / 64 flows, 2 = random sparse n = 512
// density 0.2, 3 = moe n = 64 (dense support).
const Matrix& instance(int which) {
  static const Matrix sparse = [] {
    matrix::GeneratorOptions opt;
    opt.n = 512;
    opt.density = 0.2;
    return generate_sparse(opt, 1);
  }();
  static const Matrix moe = matrix::generate_moe({}, 1);
  if (which == 2) return sparse;
  if (which == 3) return moe;
  return demand(which == 0 ? 100 : 1024);
}

// Row reduction budget of the long variant (DecomposeOptions::reduction_steps; default 2).
constexpr int kLongReduction = 16;

void decompose_with(benchmark::State& st, spectra::AssignmentKernel kernel,
                    int reduction_steps = 2) {
  const spectra::Support s = spectra::make_support(instance(static_cast<int>(st.range(0))));
  for (auto _ : st)
    benchmark::DoNotOptimize(
        spectra::spectra_decompose(s, {.weights = spectra::WeightMethod::stretch,
                                       .kernel = kernel,
                                       .reduction_steps = reduction_steps}));
}

matrix::MatrixProblem instance_problem(int which) {
  matrix::MatrixProblem p;
  p.time = instance(which);
  p.switches = 16;
  p.delta = 0.01;
  return p;
}

// spectra-ref (LP weights, LPT, EQUALIZE) per kernel on the same instances, and `spectra`.
void ref_pipeline_with(benchmark::State& st, spectra::AssignmentKernel kernel,
                       int reduction_steps = 2) {
  const matrix::MatrixProblem p = instance_problem(static_cast<int>(st.range(0)));
  for (auto _ : st)
    benchmark::DoNotOptimize(
        spectra::spectra_reference(p, {.kernel = kernel, .reduction_steps = reduction_steps}));
}
void BM_SpectraRefPipelineCold(benchmark::State& st) {
  ref_pipeline_with(st, spectra::AssignmentKernel::sparse);
}
BENCHMARK(BM_SpectraRefPipelineCold)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
void BM_SpectraRefPipelineAuto(benchmark::State& st) {
  ref_pipeline_with(st, spectra::AssignmentKernel::automatic);
}
BENCHMARK(BM_SpectraRefPipelineAuto)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
void BM_SpectraRefPipelineAutoLong(benchmark::State& st) {
  ref_pipeline_with(st, spectra::AssignmentKernel::automatic, kLongReduction);
}
BENCHMARK(BM_SpectraRefPipelineAutoLong)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
void BM_SpectraImprovedPipelineOn(benchmark::State& st) {
  const matrix::MatrixProblem p = instance_problem(static_cast<int>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(spectra::spectra_improved(p));
}
BENCHMARK(BM_SpectraImprovedPipelineOn)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_SpectraDecomposeStretchSparse(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::sparse);
}
BENCHMARK(BM_SpectraDecomposeStretchSparse)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// The same kernel with a new solver (and its buffers) at every step: kept as a baseline.
void BM_SpectraDecomposeStretchSparseFresh(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::sparse_fresh);
}
BENCHMARK(BM_SpectraDecomposeStretchSparseFresh)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_SpectraDecomposeStretchAuto(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::automatic);
}
BENCHMARK(BM_SpectraDecomposeStretchAuto)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_SpectraDecomposeStretchSparseWarm(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::sparse_warm);
}
BENCHMARK(BM_SpectraDecomposeStretchSparseWarm)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// The long row reduction variant with the automatic and the always-warm kernel.
void BM_SpectraDecomposeStretchAutoLong(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::automatic, kLongReduction);
}
BENCHMARK(BM_SpectraDecomposeStretchAutoLong)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
void BM_SpectraDecomposeStretchWarmLong(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::sparse_warm, kLongReduction);
}
BENCHMARK(BM_SpectraDecomposeStretchWarmLong)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_SpectraDecomposeStretchDense(benchmark::State& st) {
  decompose_with(st, spectra::AssignmentKernel::dense);
}
BENCHMARK(BM_SpectraDecomposeStretchDense)->Arg(0)->Arg(3)->Unit(benchmark::kMillisecond);

void BM_SpectraLpWeights(benchmark::State& st) {
  const Matrix& d = demand(static_cast<int>(st.range(0)));
  const matrix::Decomposition dec =
      spectra::spectra_decompose(d, {.weights = spectra::WeightMethod::stretch});
  const spectra::Support s = spectra::make_support(d);
  for (auto _ : st) benchmark::DoNotOptimize(lp_min_total_weights(s, dec.perms));
}
BENCHMARK(BM_SpectraLpWeights)->Arg(100)->Arg(1024)->Unit(benchmark::kMillisecond);

// Quality of the long row reduction variant: `spectra-ref` with the default budget and with
// kLongReduction on one generator per argument, s in {4, 16} x delta in {0.01, 0.04} x 3 seeds.
// Both solve every DECOMPOSE step optimally; only ties (which idle fillers, which of equal-demand
// matchings) differ, and with them the LP weights and the schedule. Counters: mean makespan /
// all-stop lower bound of each, and the share of cells where the variant is longer / shorter.
struct Family {
  std::string kind;
  matrix::GeneratorOptions opt;
};

Family family(int which) {
  matrix::GeneratorOptions n64;
  n64.n = 64;
  matrix::GeneratorOptions sparse50;
  sparse50.n = 50;
  sparse50.density = 0.2;
  matrix::GeneratorOptions wide = n64;
  wide.large_flows = 8;
  wide.small_flows = 24;
  matrix::GeneratorOptions big;
  big.n = 256;
  big.large_flows = 8;
  big.small_flows = 24;
  const std::vector<Family> all = {{"synthetic", {}},    {"gpt", {}},         {"moe", n64},
                                   {"alltoall", n64},    {"perm", {}},        {"sparse", n64},
                                   {"sparse", sparse50}, {"synthetic", wide}, {"synthetic", big}};
  return all[static_cast<std::size_t>(which)];
}

void BM_SpectraLongReductionQuality(benchmark::State& st) {
  const Family f = family(static_cast<int>(st.range(0)));
  double base = 0, longer = 0, worse = 0, better = 0;
  int cells = 0, n = 0;
  for (auto _ : st) {
    base = longer = worse = better = 0;
    cells = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      matrix::MatrixProblem p;
      p.time = generate_matrix(f.kind, f.opt, seed);
      n = p.time.n();
      for (int s : {4, 16})
        for (double delta : {0.01, 0.04}) {
          p.switches = s;
          p.delta = delta;
          const double lb = matrix::matrix_lower_bounds(p.time, s, delta).all_stop;
          const double a = spectra::spectra_reference(p).schedule.makespan;
          const double b =
              spectra::spectra_reference(p, {.reduction_steps = kLongReduction}).schedule.makespan;
          base += a / lb;
          longer += b / lb;
          worse += b > a * (1 + 1e-12);
          better += b < a * (1 - 1e-12);
          ++cells;
        }
    }
  }
  st.SetLabel(f.kind + " n=" + std::to_string(n));
  st.counters["ref/LB"] = base / cells;
  st.counters["long/LB"] = longer / cells;
  st.counters["cells_worse"] = worse / cells;
  st.counters["cells_better"] = better / cells;
}
BENCHMARK(BM_SpectraLongReductionQuality)
    ->DenseRange(0, 8)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
