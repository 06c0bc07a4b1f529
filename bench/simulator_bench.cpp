// Simulator throughput: events per second of the event engine alone, whole simulate() runs
// (scheduler + replay + metrics) of the Flux paper's 8-GPU Llama-3-8B scenario and of the
// 16-layer GPT-3 175B example scaled to 64, 256 and 1,024 GPUs and of ResNet-50 imported from
// its ASTRA-sim workload, and the writing of a run's output files.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <random>
#include <streambuf>

#include "experiments/paper_setup.hpp"
#include "fabric/change_sort.hpp"
#include "fabric/engine.hpp"
#include "fabric/nic_buffer.hpp"
#include "fabric/sim_report.hpp"
#include "schedulers/registry.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload_importers.hpp"

namespace flux {
namespace {

// Every send completes a fixed time after it is ready: the engine's own cost, nothing else.
class FixedDelay final : public fabric::Transport {
 public:
  void on_ready(fabric::Engine& e, int task) override { e.complete_send(task, e.now() + 1000); }
};

// Per GPU a compute chain; after each step every GPU sends to its ring neighbour, which waits
// for it before its next step.
workload::Workload ring_steps(int gpus, int steps) {
  workload::Workload w;
  w.gpus = gpus;
  std::vector<int> last(static_cast<std::size_t>(gpus), -1);
  for (int s = 0; s < steps; ++s) {
    std::vector<int> sent(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g) {
      workload::Task c;
      c.id = static_cast<std::int64_t>(w.tasks.size());
      c.gpu = g;
      c.duration = 1e-6 * (1 + (s + g) % 3);
      if (last[static_cast<std::size_t>(g)] >= 0)
        c.after.push_back(last[static_cast<std::size_t>(g)]);
      w.tasks.push_back(c);
      workload::Task m;
      m.id = static_cast<std::int64_t>(w.tasks.size());
      m.kind = workload::TaskKind::send;
      m.src = g;
      m.dst = (g + 1) % gpus;
      m.bytes = 1e6;
      m.after.push_back(static_cast<int>(w.tasks.size()) - 1);
      w.tasks.push_back(m);
      sent[static_cast<std::size_t>(g)] = static_cast<int>(w.tasks.size()) - 1;
      last[static_cast<std::size_t>(g)] = static_cast<int>(w.tasks.size()) - 2;
    }
    for (int g = 0; g < gpus; ++g) {
      workload::Task c;
      c.id = static_cast<std::int64_t>(w.tasks.size());
      c.gpu = g;
      c.duration = 1e-7;
      c.after = {last[static_cast<std::size_t>(g)],
                 sent[static_cast<std::size_t>((g + gpus - 1) % gpus)]};
      w.tasks.push_back(c);
      last[static_cast<std::size_t>(g)] = static_cast<int>(w.tasks.size()) - 1;
    }
  }
  return w;
}

void BM_EngineEvents(benchmark::State& state) {
  const workload::Workload w = ring_steps(static_cast<int>(state.range(0)), 2000);
  std::int64_t events = 0;
  for (auto _ : state) {
    FixedDelay transport;
    fabric::Engine engine(w, transport);
    benchmark::DoNotOptimize(engine.run());
    events += engine.trace().events;
  }
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EngineEvents)->Arg(8)->Arg(64)->Arg(1024)->Unit(benchmark::kMillisecond);

// The fabric every simulated case here runs on: 2 OCS, B = 100 Gb/s, τ = 10 µs.
fabric::Fabric bench_fabric(int gpus) {
  fabric::Fabric f;
  f.gpus = gpus;
  f.ocs = 2;
  f.link_rate = 1e11;
  f.reconfig_delay = 1e-5;
  return f;
}

const workload::Workload& paper_workload() {
  static const workload::Workload w = flux::experiments::paper_workload(16);
  return w;
}

void BM_SimulatePaperScenario(benchmark::State& state, const char* scheduler) {
  const workload::Workload& w = paper_workload();
  const fabric::Fabric f = bench_fabric(w.gpus);
  std::int64_t events = 0;
  for (auto _ : state) {
    fabric::SimResult r = schedulers::simulate(w, f, scheduler);
    events += r.metrics.events;
    benchmark::DoNotOptimize(r.metrics.iteration_time);
  }
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_SimulatePaperScenario, ideal, "ideal")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulatePaperScenario, rotornet, "rotornet")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulatePaperScenario, rotornet_vlb, "rotornet-vlb")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulatePaperScenario, bvn, "bvn")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulatePaperScenario, spectra_phase, "spectra-phase")
    ->Unit(benchmark::kMillisecond);

const workload::Workload& gpt3_workload(int gpus) {
  static std::map<int, workload::Workload> built;
  auto it = built.find(gpus);
  if (it == built.end()) it = built.emplace(gpus, experiments::gpt3_example_workload(gpus)).first;
  return it->second;
}

// One whole run per iteration (the 1,024-GPU rotor runs take minutes): CPU time, events/s and
// tasks/s; the workload is built once, outside the timing.
void BM_SimulateGpt3(benchmark::State& state, const char* scheduler) {
  const workload::Workload& w = gpt3_workload(static_cast<int>(state.range(0)));
  const fabric::Fabric f = bench_fabric(w.gpus);
  std::int64_t events = 0, tasks = 0;
  for (auto _ : state) {
    fabric::SimResult r = schedulers::simulate(w, f, scheduler);
    events += r.metrics.events;
    tasks += static_cast<std::int64_t>(w.tasks.size());
    benchmark::DoNotOptimize(r.metrics.iteration_time);
  }
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}
#define FLUX_GPT3_CASE(id, name)               \
  BENCHMARK_CAPTURE(BM_SimulateGpt3, id, name) \
      ->ArgName("gpus")                        \
      ->Arg(64)                                \
      ->Arg(256)                               \
      ->Arg(1024)                              \
      ->Iterations(1)                          \
      ->MeasureProcessCPUTime()                \
      ->Unit(benchmark::kSecond)
FLUX_GPT3_CASE(ideal, "ideal");
FLUX_GPT3_CASE(bvn, "bvn");
FLUX_GPT3_CASE(spectra_phase, "spectra-phase");
FLUX_GPT3_CASE(flux_greedy, "flux-greedy");
FLUX_GPT3_CASE(rotornet, "rotornet");
FLUX_GPT3_CASE(rotornet_vlb, "rotornet-vlb");

// ResNet-50 data parallel from ASTRA-sim's text workload (449,280 tasks on 64 GPUs), imported and
// simulated under `ideal` as `flux simulate --astra` runs it: the run a researcher would compare
// with ASTRA-sim's analytical backend on the same workload.
void BM_SimulateResNet50FromTrace(benchmark::State& state) {
  const fabric::Fabric f = bench_fabric(64);
  workload::AstraImportOptions options;
  options.gpus = 64;
  std::int64_t tasks = 0;
  for (auto _ : state) {
    const workload::Workload w =
        workload::import_astra(FLUX_TRACES_DIR "/astra-text/Resnet50_DataParallel.txt", options);
    fabric::SimResult r = schedulers::simulate(w, f, "ideal");
    tasks += static_cast<std::int64_t>(w.tasks.size());
    benchmark::DoNotOptimize(r.metrics.iteration_time);
  }
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulateResNet50FromTrace)
    ->Iterations(1)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// Counts what is written to it and drops it: the formatting, without the file system.
class CountingBuf final : public std::streambuf {
 public:
  std::int64_t bytes = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += n;
    return n;
  }
  int_type overflow(int_type c) override {
    ++bytes;
    return traits_type::not_eof(c);
  }
};

// The 256-GPU example's `rotornet` run (τ = 10 µs), its curves kept as `flux simulate` keeps
// them for its files: what the writers and the NIC-buffer metric below read.
const fabric::Fabric& fabric256() {
  static const fabric::Fabric f = bench_fabric(256);
  return f;
}

const fabric::SimResult& rotornet256() {
  static const fabric::SimResult r = [] {
    fabric::CircuitOutputs all;
    all.buffer_curves = true;
    return schedulers::run_scheduler(
               schedulers::workload_scheduler("rotornet"),
               {.workload = gpt3_workload(256), .fabric = fabric256(), .outputs = all}, {})
        .sim;
  }();
  return r;
}

// One output file of that run: bytes written per second.
void BM_WriteOutputFile(benchmark::State& state, const char* file) {
  const workload::Workload& w = gpt3_workload(256);
  const fabric::SimResult& r = rotornet256();
  CountingBuf counted;
  std::ostream out(&counted);
  for (auto _ : state) fabric::write_sim_output(out, file, w, fabric256(), r);
  state.SetBytesProcessed(counted.bytes);
}
BENCHMARK_CAPTURE(BM_WriteOutputFile, timeline, "timeline.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WriteOutputFile, circuit_schedule, "circuit-schedule.json")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WriteOutputFile, flows, "flows.csv")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WriteOutputFile, circuits, "circuits.csv")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WriteOutputFile, nic_buffer, "nic_buffer.csv")->Unit(benchmark::kMillisecond);

// The NIC-buffer metric of that run (its change records made, sorted per bucket and swept), with
// and without the curves the files need: hops per second.
void BM_NicBufferMetric(benchmark::State& state) {
  const workload::Workload& w = gpt3_workload(256);
  const fabric::SimResult& r = rotornet256();
  const fabric::BufferModel model = fabric::buffer_model(fabric256(), fabric::Posting::ready);
  const fabric::Time end = *std::max_element(r.trace.finish.begin(), r.trace.finish.end());
  std::vector<fabric::BufferSample> series;
  for (auto _ : state) {
    series.clear();
    benchmark::DoNotOptimize(
        fabric::nic_buffer(w, r.trace, model, end, state.range(0) != 0 ? &series : nullptr));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(r.trace.hops.hop_count()));
}
BENCHMARK(BM_NicBufferMetric)->ArgName("curves")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Histogram buckets of the metric sorted by (time, GPU, seq): 1,000 buckets of 300 records on
// 1,024 GPUs over `times` distinct times each (a 16-layer 1,024-GPU rotornet-vlb run has about
// 25 records per time), by ChangeSort (ranked: 1) and, as the baseline, by comparisons (0). Many
// buckets, as in a run: sorting one bucket again and again lets the branch predictor learn it.
void BM_ChangeSortBucket(benchmark::State& state) {
  constexpr std::size_t kBuckets = 1000, kRecords = 300;
  std::mt19937_64 rng(1);
  const auto times = static_cast<std::uint64_t>(state.range(1));
  std::vector<fabric::Change> buckets;
  for (std::size_t b = 0; b < kBuckets; ++b)
    for (std::uint32_t seq = 0; seq < kRecords; ++seq)
      buckets.emplace_back(4e12 + static_cast<double>(rng() % times) * 1e6, 1.0, seq,
                           static_cast<std::uint32_t>(rng() % 1024), fabric::kNic);
  fabric::ChangeSort sort;
  std::vector<fabric::Change> work;
  for (auto _ : state) {
    work = buckets;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::span<fabric::Change> bucket = std::span(work).subspan(b * kRecords, kRecords);
      if (state.range(0) != 0) {
        benchmark::DoNotOptimize(sort(bucket).data());
      } else {
        std::sort(
            bucket.begin(), bucket.end(),
            [](const fabric::Change& x, const fabric::Change& y) { return x.order() < y.order(); });
      }
    }
    benchmark::DoNotOptimize(work.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBuckets * kRecords));
}
BENCHMARK(BM_ChangeSortBucket)
    ->ArgNames({"ranked", "times"})
    ->ArgsProduct({{0, 1}, {12, 60}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace flux
