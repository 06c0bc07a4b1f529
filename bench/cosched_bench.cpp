// Flux's kernels on the paper's workload: flux-greedy, slack-gap-fill, conflict analysis, the
// local search's list scheduler and a fixed-budget search, and the lower bound.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "cosched/conflicts.hpp"
#include "cosched/gap_fill.hpp"
#include "cosched/greedy.hpp"
#include "cosched/local_search.hpp"
#include "cosched/lower_bound.hpp"
#include "cosched/placement.hpp"
#include "experiments/paper_setup.hpp"
#include "fabric/fabric_io.hpp"

namespace flux {
namespace {

// examples/fabric-8gpu-2ocs.json (τ = 100 µs).
const fabric::Fabric& paper_fabric() {
  static const fabric::Fabric f = fabric::read_fabric(experiments::paper_fabric_path());
  return f;
}

const cosched::CoschedInstance& paper_instance(int layers) {
  static const cosched::CoschedInstance eight =
      cosched::make_instance(experiments::paper_workload(8), paper_fabric());
  static const cosched::CoschedInstance sixteen =
      cosched::make_instance(experiments::paper_workload(16), paper_fabric());
  return layers == 8 ? eight : sixteen;
}

void BM_FluxGreedyPaper(benchmark::State& state) {
  const cosched::CoschedInstance& inst = paper_instance(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(flux_greedy(inst));
  state.counters["messages"] = inst.message_count();
}
BENCHMARK(BM_FluxGreedyPaper)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_SlackGapFillPaper(benchmark::State& state) {
  const cosched::CoschedInstance& inst = paper_instance(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(slack_gap_fill(inst));
}
BENCHMARK(BM_SlackGapFillPaper)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_ConflictAnalysisPaper(benchmark::State& state) {
  const cosched::CoschedInstance& inst = paper_instance(8);
  for (auto _ : state) {
    const cosched::MessageClosure closure(inst);
    benchmark::DoNotOptimize(analyze_conflicts(inst, closure));
  }
}
BENCHMARK(BM_ConflictAnalysisPaper)->Unit(benchmark::kMillisecond);

// One move evaluation of the local search: list-scheduling a start order (O(V + E)).
void BM_ListSchedulerPaper(benchmark::State& state) {
  const cosched::CoschedInstance& inst = paper_instance(static_cast<int>(state.range(0)));
  const auto greedy = flux_greedy(inst);
  const auto order = start_order(inst, greedy);
  std::vector<int> sw;
  for (const cosched::Placement& p : greedy) sw.push_back(p.sw);
  cosched::ListScheduler list(inst);
  for (auto _ : state) benchmark::DoNotOptimize(list.run(sw, order));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ListSchedulerPaper)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

// The critical-path local search from flux-greedy with a fixed budget of 20,000 moves (τ = 100 µs
// and 1 ms); counters: the iteration time before and after (ms).
void BM_LocalSearchPaper(benchmark::State& state) {
  const cosched::CoschedInstance inst = cosched::make_instance(
      experiments::paper_workload(8), experiments::with_tau(paper_fabric(), state.range(0) * 1e-6));
  const cosched::MessageClosure closure(inst);
  const auto greedy = flux_greedy(inst);
  std::vector<int> sw;
  for (const cosched::Placement& p : greedy) sw.push_back(p.sw);
  cosched::LocalSearchOptions o;
  o.time_limit = 1e9;
  o.max_evaluations = 20000;
  cosched::LocalSearchResult r;
  for (auto _ : state) r = critical_path_search(inst, closure, sw, start_order(inst, greedy), o);
  state.counters["greedy_ms"] = 1e3 * iteration_time(inst, greedy);
  state.counters["search_ms"] = 1e3 * r.iteration_time;
}
BENCHMARK(BM_LocalSearchPaper)->Arg(100)->Arg(1000)->Unit(benchmark::kSecond)->Iterations(1);

// flux_lower_bound on the paper's setup (args: layers, τ in µs), with the bound, the critical
// path, flux-greedy's and slack-gap-fill's iteration times as counters (ms) and their gaps to
// the bound (%).
void BM_FluxLowerBoundPaper(benchmark::State& state) {
  const double tau = static_cast<double>(state.range(1)) * 1e-6;
  const cosched::CoschedInstance inst =
      cosched::make_instance(experiments::paper_workload(static_cast<int>(state.range(0))),
                             experiments::with_tau(paper_fabric(), tau));
  cosched::FluxBound bound;
  for (auto _ : state) bound = flux_lower_bound(inst);
  const double greedy = iteration_time(inst, flux_greedy(inst));
  const double fill = iteration_time(inst, slack_gap_fill(inst));
  state.counters["bound_ms"] = 1e3 * bound.value;
  state.counters["critical_path_ms"] = 1e3 * inst.critical_path;
  state.counters["greedy_ms"] = 1e3 * greedy;
  // Gaps clamped at 0: a schedule attaining the bound can differ from it by rounding.
  state.counters["greedy_gap_pct"] = std::max(0.0, 100 * (greedy - bound.value) / greedy);
  state.counters["gap_fill_ms"] = 1e3 * fill;
  state.counters["gap_fill_gap_pct"] = std::max(0.0, 100 * (fill - bound.value) / fill);
  state.SetLabel(describe(bound));
}
BENCHMARK(BM_FluxLowerBoundPaper)
    ->ArgsProduct({{8, 16}, {1, 10, 100, 1000}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
