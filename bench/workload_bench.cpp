// Generation throughput of the workload model (tasks per second), streaming into a sink that
// only counts, so file I/O does not enter the figure. The examples/ scenarios are the inputs.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "workload/dag_builder.hpp"
#include "workload/workload_stats.hpp"

namespace {

class CountingSink final : public flux::workload::TaskSink {
 public:
  void add(const flux::workload::Task& t) override {
    edges += static_cast<std::int64_t>(t.after.size()), ++tasks;
  }
  std::int64_t tasks = 0, edges = 0;
};

void generate(benchmark::State& state, const std::string& example, bool stats) {
  // __FILE__ is absolute in CMake builds: examples/ sits next to bench/.
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path();
  const flux::workload::Scenario s =
      flux::workload::read_scenario((root / "examples" / example).string());
  std::int64_t tasks = 0;
  for (auto _ : state) {
    if (stats) {
      flux::workload::StatsSink sink;
      flux::workload::build_workload(s, sink);
      tasks += sink.stats().tasks;
      benchmark::DoNotOptimize(sink.stats().compute_critical_path);
    } else {
      CountingSink sink;
      flux::workload::build_workload(s, sink);
      tasks += sink.tasks;
    }
  }
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}

void BM_WorkloadLlama3_8bTp4Dp2(benchmark::State& state) {
  generate(state, "llama3-8b-16l-tp4-dp2.json", false);
}
void BM_WorkloadMixtralEp8(benchmark::State& state) {
  generate(state, "mixtral-8x7b-16gpu-tp2-ep8.json", false);
}
void BM_WorkloadGpt3_175b_1024Gpus(benchmark::State& state) {
  generate(state, "gpt3-175b-1024gpu-tp8-pp8-dp16.json", state.range(0) != 0);
}

}  // namespace

BENCHMARK(BM_WorkloadLlama3_8bTp4Dp2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WorkloadMixtralEp8)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_WorkloadGpt3_175b_1024Gpus)->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->Iterations(1);
