// Cost of what `flux matrix schedule` adds around the algorithm: the lower bounds (LB1 + LB2
// bisection) and the verifier, at n = 100 (synthetic, 16 flows per port) and n = 1024 (64 flows
// per port), s = 16, delta = 0.01; and the exact MILP on a dense 4 x 4 instance.
// Run: build/flux_bench --benchmark_filter='Bounds|Verify|Exact'
#include <benchmark/benchmark.h>

#include "matrix/bounds.hpp"
#include "matrix/exact_schedule.hpp"
#include "matrix/generators.hpp"
#include "matrix/verify.hpp"
#include "spectra/spectra.hpp"

namespace flux {
namespace {

matrix::MatrixProblem synthetic_problem(int n) {
  matrix::GeneratorOptions opt;
  opt.n = n;
  opt.large_flows = n == 100 ? 4 : 16;
  opt.small_flows = n == 100 ? 12 : 48;
  return {.time = generate_synthetic(opt, 1), .switches = 16, .delta = 0.01};
}

void BM_Bounds(benchmark::State& st) {
  const matrix::MatrixProblem p = synthetic_problem(static_cast<int>(st.range(0)));
  for (auto _ : st)
    benchmark::DoNotOptimize(matrix::matrix_lower_bounds(p.time, p.switches, p.delta));
}
BENCHMARK(BM_Bounds)->Arg(100)->Arg(1024)->Unit(benchmark::kMicrosecond);

void BM_Verify(benchmark::State& st) {
  const matrix::MatrixProblem p = synthetic_problem(static_cast<int>(st.range(0)));
  const matrix::MatrixSchedule s = spectra::spectra_reference(p).schedule;
  for (auto _ : st) benchmark::DoNotOptimize(verify_matrix_schedule(p.time, s));
  st.counters["slots"] = static_cast<double>(s.slots.size());
}
BENCHMARK(BM_Verify)->Arg(100)->Arg(1024)->Unit(benchmark::kMicrosecond);

void BM_ExactDense4x4(benchmark::State& st) {
  matrix::GeneratorOptions opt;
  opt.n = 4;
  opt.density = 1.0;
  const matrix::MatrixProblem p{
      .time = generate_sparse(opt, 1), .switches = static_cast<int>(st.range(0)), .delta = 0.02};
  for (auto _ : st) benchmark::DoNotOptimize(exact_matrix_schedule(p));
}
BENCHMARK(BM_ExactDense4x4)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
