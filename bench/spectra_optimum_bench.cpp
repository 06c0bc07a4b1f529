// Spectra against the exact optimum (matrix/exact_schedule.hpp, CBC over the maximal matchings
// of the support) on 8-port versions of the generators and sparse 10 / 12 ports, s = 2, delta in
// {0.02, 0.08}, seeds 1-3: mean OPT / LB3, spectra / OPT and spectra-ref / OPT over the instances
// CBC proves optimal within its limit (counter `solved` = their share). The time column is the
// whole grid. Run: build/bench/flux_bench --benchmark_filter=SpectraOptimum
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "matrix/bounds.hpp"
#include "matrix/exact_schedule.hpp"
#include "matrix/generators.hpp"
#include "spectra/spectra.hpp"

namespace flux {
namespace {

struct SmallFamily {
  std::string name, kind;
  matrix::GeneratorOptions opt;
};

std::vector<SmallFamily> families() {
  matrix::GeneratorOptions sparse;
  sparse.n = 8;
  sparse.density = 0.25;
  matrix::GeneratorOptions synthetic;  // 1 large + 2 small flows per port
  synthetic.n = 8;
  synthetic.large_flows = 1;
  synthetic.small_flows = 2;
  matrix::GeneratorOptions perm;
  perm.n = 8;
  perm.permutations = 3;
  matrix::GeneratorOptions moe;  // few tokens, top-1: a sparse routing matrix
  moe.n = 8;
  moe.tokens = 3;
  moe.top_k = 1;
  matrix::GeneratorOptions sparse10 = sparse;  // the exact solver's reach beyond 8 ports
  sparse10.n = 10;
  matrix::GeneratorOptions sparse12 = sparse;
  sparse12.n = 12;
  sparse12.density = 0.2;
  return {{"sparse8-d0.25", "sparse", sparse},
          {"synthetic8-1+2", "synthetic", synthetic},
          {"perm8-3", "perm", perm},
          {"moe8-top1", "moe", moe},
          {"sparse10-d0.25", "sparse", sparse10},
          {"sparse12-d0.2", "sparse", sparse12}};
}

void BM_SpectraOptimum(benchmark::State& st) {
  const SmallFamily f = families()[static_cast<std::size_t>(st.range(0))];
  st.SetLabel(f.name);
  double opt_lb = 0, imp = 0, ref = 0;
  int solved = 0, tried = 0, too_large = 0;
  for (auto _ : st) {
    opt_lb = imp = ref = 0;
    solved = tried = too_large = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed)
      for (double delta : {0.02, 0.08}) {
        const matrix::MatrixProblem p{
            .time = generate_matrix(f.kind, f.opt, seed), .switches = 2, .delta = delta};
        ++tried;
        const matrix::ExactResult opt = exact_matrix_schedule(p, {.time_limit_seconds = 60});
        too_large += opt.status == matrix::ExactStatus::too_large;
        if (opt.status != matrix::ExactStatus::optimal || opt.makespan <= 0) continue;
        ++solved;
        opt_lb += opt.makespan / matrix::matrix_lower_bounds(p.time, 2, delta).all_stop;
        imp += spectra::spectra_improved(p).schedule.makespan / opt.makespan;
        ref += spectra::spectra_reference(p).schedule.makespan / opt.makespan;
      }
  }
  const double n = solved > 0 ? solved : 1;
  st.counters["OPT/LB3"] = opt_lb / n;
  st.counters["spectra/OPT"] = imp / n;
  st.counters["ref/OPT"] = ref / n;
  st.counters["solved"] = static_cast<double>(solved) / tried;
  st.counters["too_large"] = static_cast<double>(too_large) / tried;  // > 2000 maximal matchings
}
BENCHMARK(BM_SpectraOptimum)->DenseRange(0, 5)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
