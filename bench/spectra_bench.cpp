// Spectra speed: the whole pipeline at n = 100 (16 flows per port, s = 16) and n = 1024 (64
// non-zeros per port), then per DECOMPOSE kernel on four instances (pipeline and DECOMPOSE alone),
// and the LP re-weighting.
// Run: build/flux_bench --benchmark_filter=Spectra
#include <benchmark/benchmark.h>

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

void decompose_with(benchmark::State& st, spectra::AssignmentKernel kernel) {
  const spectra::Support s = spectra::make_support(instance(static_cast<int>(st.range(0))));
  for (auto _ : st)
    benchmark::DoNotOptimize(spectra::spectra_decompose(
        s, {.weights = spectra::WeightMethod::stretch, .kernel = kernel}));
}

matrix::MatrixProblem instance_problem(int which) {
  matrix::MatrixProblem p;
  p.time = instance(which);
  p.switches = 16;
  p.delta = 0.01;
  return p;
}

// spectra-ref (LP weights, LPT, EQUALIZE) per kernel on the same instances, and `spectra`.
void ref_pipeline_with(benchmark::State& st, spectra::AssignmentKernel kernel) {
  const matrix::MatrixProblem p = instance_problem(static_cast<int>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(spectra::spectra_reference(p, {.kernel = kernel}));
}
void BM_SpectraRefPipelineCold(benchmark::State& st) {
  ref_pipeline_with(st, spectra::AssignmentKernel::sparse);
}
BENCHMARK(BM_SpectraRefPipelineCold)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
void BM_SpectraRefPipelineAuto(benchmark::State& st) {
  ref_pipeline_with(st, spectra::AssignmentKernel::automatic);
}
BENCHMARK(BM_SpectraRefPipelineAuto)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
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

}  // namespace
}  // namespace flux
