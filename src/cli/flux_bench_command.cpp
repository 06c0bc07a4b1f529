// `flux bench flux`: the Flux paper's experiment in one command (experiments/flux_sweep.hpp):
// Llama-3 8B truncated to 8 and 16 layers, TP4 × DP2 on 8 GPUs, 2 OCSes with one 800 Gb/s duplex
// link per GPU each (both read from examples/, or --scenario / --fabric / --ocs), τ ∈ {1 µs,
// 10 µs, 100 µs, 1 ms}; Flux, flux-greedy and the baselines replayed by the same simulator. Prints
// a table with the ratios the paper reports and writes a CSV and SVG figures. Also `flux bench
// flux-greedy`: flux-greedy at scale against the ideal-fabric bound.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "cli/scheduler_flags.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "cosched/gap_fill.hpp"
#include "cosched/lower_bound.hpp"
#include "experiments/flux_suite.hpp"
#include "experiments/flux_sweep.hpp"
#include "experiments/paper_setup.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/metrics.hpp"
#include "workload/dag_builder.hpp"

namespace flux::cli {
namespace {

struct BenchArgs {
  std::string scenario = experiments::paper_scenario_path(),
              fabric = experiments::paper_fabric_path();
  std::string model_label = "Llama-3 8B";
  int ocs = 0;
  std::string layers = "8,16", taus = "1us,10us,100us,1ms", out_dir = "flux-bench";
  std::string nic_window;  // empty: the fabric file's
  std::string from_csv;    // set: redraw the figures of this earlier CSV, run nothing
  std::string suite;       // with --suite: a flux.bench-suite/1 file, empty = the default one
  std::string cases;       // with --suite: the labels of the cases to run, empty = all
  std::string schedulers = fmt::format("{}", fmt::join(experiments::flux_sweep_schedulers(), ","));
  SchedulerFlags flags;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// A comma-separated list with at least one item, each read by `parse` (InputError naming `flag`).
template <class Parse>
auto parse_list(const std::string& list, const char* flag, const char* what, Parse parse) {
  std::vector<decltype(parse(std::string()))> out;
  for (const auto& item : split(list)) out.push_back(parse(item));
  if (out.empty()) throw InputError("", flag, fmt::format("at least one {}, got '{}'", what, list));
  return out;
}

int parse_layer_count(const std::string& text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1)
    throw InputError("", "--layers", fmt::format("positive layer counts, got '{}'", text));
  return v;
}

void write_plots(const experiments::FluxSweep& sweep,
                 const std::vector<experiments::FluxSweepRow>& rows, const std::string& dir) {
  for (int layers : sweep.layers)
    for (const auto& [file, svg] : flux_sweep_plots(sweep, rows, layers))
      write_file_atomic(dir + "/" + file, svg);
}

// The figures of an earlier run's CSV, drawn as that run drew them; the scenario and fabric
// options only name the case in the titles.
void replot(experiments::FluxSweep sweep, const BenchArgs& a) {
  experiments::FluxSweepCsv csv =
      experiments::read_flux_sweep_csv(read_file(a.from_csv), a.from_csv);
  sweep.layers = csv.layers;
  sweep.schedulers = csv.schedulers;
  prepare_output_dir(a.out_dir, "--out-dir");
  write_plots(sweep, csv.rows, a.out_dir);
  fmt::print("wrote the SVG figures of {} to {}\n", a.from_csv, a.out_dir);
}

void run_bench(const BenchArgs& a, const CLI::App& cmd) {
  experiments::FluxSweep sweep;
  sweep.scenario = workload::read_scenario(a.scenario);
  sweep.model_label = a.model_label;
  sweep.fabric = experiments::with_tau(fabric::read_fabric(a.fabric), 0.0, a.ocs);
  if (!a.from_csv.empty()) return replot(std::move(sweep), a);
  if (!a.nic_window.empty()) sweep.fabric.nic_window = parse_time(a.nic_window, "--nic-window");
  sweep.schedulers = split(a.schedulers);
  sweep.failure_text = naming_flag;
  a.flags.naming_flags([&] { experiments::check_schedulers(sweep.schedulers); });
  for (const auto& n : sweep.schedulers)
    sweep.options[n] = a.flags.values_for(schedulers::workload_scheduler(n));
  sweep.fabric_label = a.fabric;
  sweep.layers = parse_list(a.layers, "--layers", "layer count", parse_layer_count);
  sweep.taus = parse_list(a.taus, "--taus", "reconfiguration delay",
                          [](const std::string& t) { return parse_time(t, "--taus"); });
  prepare_output_dir(a.out_dir, "--out-dir");  // before the long run
  std::vector<experiments::FluxSweepRow> rows;
  ProgressStage cells(
      progress(), "bench cells",
      static_cast<double>(sweep.layers.size() * sweep.taus.size() * sweep.schedulers.size()));
  for (int layers : sweep.layers) {
    const workload::Workload w = experiments::scenario_workload(sweep.scenario, layers);
    for (double tau : sweep.taus) {
      const auto block =
          a.flags.naming_flags([&] { return run_flux_case(sweep, w, layers, tau, progress()); });
      rows.insert(rows.end(), block.begin(), block.end());
      progress().hide();  // the table starts on a clean line when both go to the terminal
      fmt::print("{}", flux_case_table(sweep, rows, layers, tau));
      std::fflush(stdout);  // long runs: show each block as it completes
    }
  }
  cells.finish();
  write_with_sidecar(a.out_dir + "/flux_bench.csv", flux_sweep_csv(rows),
                     command_provenance(cmd, {a.scenario, a.fabric}));
  write_plots(sweep, rows, a.out_dir);
  fmt::print("{}\nwrote {}/flux_bench.csv and SVG figures\n", experiments::flux_case_legend(),
             a.out_dir);
}

// The suite: every case's cells in turn, a table row printed as each completes; then one CSV
// (with its provenance sidecar) and a figure per OCS count.
void run_suite(const BenchArgs& a, const CLI::App& cmd) {
  const std::string file = a.suite.empty() ? experiments::default_flux_suite_path() : a.suite;
  if (!a.from_csv.empty()) {
    const auto rows = experiments::read_flux_suite_csv(read_file(a.from_csv), a.from_csv);
    prepare_output_dir(a.out_dir, "--out-dir");
    for (const auto& [name, svg] : experiments::flux_suite_plots(rows))
      write_file_atomic(a.out_dir + "/" + name, svg);
    return fmt::print("wrote the SVG figures of {} to {}\n", a.from_csv, a.out_dir);
  }
  experiments::FluxSuite suite = experiments::read_flux_suite(file);
  if (!a.cases.empty())
    suite = experiments::select_cases(
        std::move(suite), parse_list(a.cases, "--cases", "case label", [](auto s) { return s; }),
        "--cases");
  experiments::check_suite_inputs(suite);
  experiments::FluxSweep base;
  base.schedulers = experiments::flux_suite_schedulers();
  base.failure_text = naming_flag;
  for (const auto& n : base.schedulers)
    base.options[n] = a.flags.values_for(schedulers::workload_scheduler(n));
  prepare_output_dir(a.out_dir, "--out-dir");  // before the long run
  ProgressStage cells(progress(), "suite cells",
                      static_cast<double>(suite.cases.size() * suite.ocs.size() *
                                          suite.taus.size() * base.schedulers.size()));
  fmt::print("{}\n{}", suite.name, experiments::flux_suite_table_header());
  std::vector<experiments::FluxSuiteRow> rows;
  std::vector<std::string> inputs{file, suite.fabric_path};
  for (const experiments::FluxSuiteCase& c : suite.cases) {
    inputs.push_back(c.scenario_path);
    const experiments::FluxSuiteCaseRun run = prepare_suite_case(suite, c, base);
    const auto block = a.flags.naming_flags([&] {
      return run_suite_case(suite, run, progress(), [](const experiments::FluxSuiteRow& r) {
        progress().hide();  // the row starts on a clean line when both go to the terminal
        fmt::print("{}", experiments::flux_suite_table_row(r));
        std::fflush(stdout);  // long runs: show each cell as it completes
      });
    });
    rows.insert(rows.end(), block.begin(), block.end());
  }
  cells.finish();
  write_with_sidecar(a.out_dir + "/flux_suite.csv", experiments::flux_suite_csv(rows),
                     command_provenance(cmd, inputs));
  for (const auto& [name, svg] : experiments::flux_suite_plots(rows))
    write_file_atomic(a.out_dir + "/" + name, svg);
  fmt::print("{}\nwrote {}/flux_suite.csv and SVG figures\n", experiments::flux_suite_legend(),
             a.out_dir);
}

CLI::App* bench_family(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == "bench") return sub;
  auto* bench = app.add_subcommand("bench", "Reproducible experiments");
  bench->require_subcommand(1);
  return bench;
}

struct GreedyBenchArgs {
  std::string scenario, tau = "10us", rate = "800Gbps";
  int ocs = 4;
};

// flux-greedy at scale: the scenario's DAG is built in memory (no multi-GB JSON), scheduled, and
// compared with the ideal-fabric bound (critical path with sends at σB, busiest GPU's volume) and
// flux_lower_bound; then slack-gap-fill on the same instance.
void run_greedy_bench(const GreedyBenchArgs& a) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto seconds = [](auto from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  ProgressStage building(progress(), "build workload");
  workload::Workload w = workload::build_workload(workload::read_scenario(a.scenario));
  const fabric::Fabric f{w.gpus,
                         a.ocs,
                         parse_rate(a.rate, "--rate"),
                         0.0,
                         parse_time(a.tau, "--tau"),
                         fabric::CircuitKind::duplex,
                         false};
  const double ideal = iteration_lower_bound(w, f);  // f has α = 0
  const std::size_t tasks = w.tasks.size();
  const cosched::CoschedInstance inst = cosched::make_instance(std::move(w), f, a.scenario);
  building.finish();
  fmt::print("{} tasks, {} sends, {} GPUs, {} OCS; built in {:.1f} s\n", tasks,
             inst.message_count(), f.gpus, f.ocs, seconds(t0));
  const auto t1 = Clock::now();
  ProgressStage greedy(progress(), "flux-greedy");
  const auto pl = flux_greedy(inst);
  greedy.finish();
  const double took = seconds(t1), it = iteration_time(inst, pl);
  const auto t2 = Clock::now();
  ProgressStage bounding(progress(), "lower bound");
  const cosched::FluxBound lb = flux_lower_bound(inst);
  bounding.finish();
  const double lb_took = seconds(t2);
  fmt::print(
      "flux-greedy: iteration {} in {:.2f} s; ideal-fabric bound {} (gap {:.2f}%), "
      "Flux-model bound {} (gap {:.2f}%; critical path {}) in {:.2f} s, {} reconfigurations\n"
      "bound: {}\n",
      format_time(it), took, format_time(ideal), 100 * (it - ideal) / it, format_time(lb.value),
      100 * (it - lb.value) / it, format_time(inst.critical_path), lb_took,
      count_reconfigurations(inst, pl), describe(lb));
  const auto t3 = Clock::now();
  ProgressStage filling(progress(), "slack-gap-fill");
  const double fill = iteration_time(inst, slack_gap_fill(inst));
  filling.finish();
  fmt::print("slack-gap-fill: iteration {} in {:.2f} s (gap to the Flux-model bound {:.2f}%)\n",
             format_time(fill), seconds(t3), 100 * (fill - lb.value) / fill);
}

}  // namespace

void add_flux_bench_command(CLI::App& app) {
  auto greedy = std::make_shared<GreedyBenchArgs>();
  auto* g = bench_family(app)->add_subcommand(
      "flux-greedy", "flux-greedy on a large scenario built in memory, against the ideal bound");
  g->add_option("--scenario", greedy->scenario, "flux.scenario/1 file")->required();
  g->add_option("--ocs", greedy->ocs, "OCSes")->capture_default_str();
  g->add_option("--tau", greedy->tau, "reconfiguration delay")
      ->type_name("TIME")
      ->capture_default_str();
  g->add_option("--rate", greedy->rate, "link rate per port")
      ->type_name("RATE")
      ->capture_default_str();
  g->callback([greedy] { run_greedy_bench(*greedy); });

  auto args = std::make_shared<BenchArgs>();
  auto* cmd = bench_family(app)->add_subcommand(
      "flux", "The Flux paper's experiment: Llama-3 8B TP4xDP2 on 8 GPUs, 2 OCSes, tau sweep");
  cmd->add_option("--scenario", args->scenario,
                  "flux.scenario/1 file (its layer count is replaced)")
      ->capture_default_str();
  cmd->add_option("--fabric", args->fabric, "flux.fabric/1 file (its tau is replaced)")
      ->capture_default_str();
  cmd->add_option("--ocs", args->ocs, "OCSes (0 = the fabric file's)")->capture_default_str();
  cmd->add_option("--model-label", args->model_label, "the model's name in titles")
      ->capture_default_str();
  cmd->add_option("--layers", args->layers, "layer counts, comma-separated")->capture_default_str();
  cmd->add_option("--taus", args->taus, "reconfiguration delays, comma-separated")
      ->type_name("TIMES")
      ->capture_default_str();
  cmd->add_option("--schedulers", args->schedulers, "schedulers, comma-separated")
      ->capture_default_str();
  cmd->add_option("--nic-window", args->nic_window,
                  "NIC staging window per message on the wire, as time at line rate (default: "
                  "the fabric file's, 1us when it has none)")
      ->type_name("TIME");
  cmd->add_option("--out-dir,-o", args->out_dir, "CSV and SVG output folder")
      ->capture_default_str();
  cmd->add_option("--from-csv", args->from_csv,
                  "redraw the SVG figures of an earlier run's flux_bench.csv into --out-dir "
                  "without running anything (--scenario, --fabric, --ocs, --model-label name "
                  "the case in the titles)")
      ->type_name("FILE");
  auto* suite = cmd->add_option("--suite", args->suite,
                                "run a suite of workloads instead (flux.bench-suite/1 file; "
                                "alone: examples/suites/flux-suite.json): one summary row per "
                                "case, OCS count and tau; with --from-csv, redraw its figure")
                    ->expected(0, 1)
                    ->type_name("[FILE]");
  cmd->add_option("--cases", args->cases,
                  "with --suite: run only these cases (labels, comma-separated)")
      ->needs(suite);
  // The suite names its own scenarios, fabric, OCS counts and delays, and its schedulers.
  for (const char* single : {"--scenario", "--fabric", "--ocs", "--model-label", "--layers",
                             "--taus", "--schedulers", "--nic-window"})
    suite->excludes(cmd->get_option(single));
  args->flags.add_to(*cmd, all_workload_schedulers(), {{"time_limit", "300s"}});
  cmd->callback([args, cmd, suite] {
    if (suite->count() > 0) return run_suite(*args, *cmd);
    run_bench(*args, *cmd);
  });
}

}  // namespace flux::cli
