// `flux bench flux`: the Flux paper's experiment in one command (issue 6, reference/flux.md §1.5,
// §4): Llama-3 8B truncated to 8 and 16 layers, TP4 × DP2 on 8 GPUs, 2 OCSes with one 800 Gb/s
// duplex link per GPU each, τ ∈ {1 µs, 10 µs, 100 µs, 1 ms}; Flux, flux-greedy and the baselines
// replayed by the same simulator. Prints a table with the ratios the paper reports and writes a
// CSV and SVG figures (iteration time and peak NIC buffer against τ, log scales).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/cosched_support.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "cosched/gap_fill.hpp"
#include "cosched/lower_bound.hpp"
#include "fabric/metrics.hpp"
#include "fabric/scheduler.hpp"
#include "report/csv.hpp"
#include "report/svg_plot.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"

namespace flux::cli {
namespace {

// The schedulers the Flux paper's claims compare against: they cycle through circuits without
// knowing the workload's timing.
constexpr const char* kPeriodic[] = {"rotornet", "rotornet-vlb", "bvn-periodic"};

struct BenchArgs {
  std::string layers = "8,16", taus = "1us,10us,100us,1ms", out_dir = "flux-bench";
  std::string schedulers =
      "flux,flux-greedy,rotornet,rotornet-vlb,bvn,bvn-periodic,spectra-phase,static,ideal";
  double bvn_frame = 100;  // periodic BvN frame in units of τ
  std::string nic_window = "1us";
  FluxFlags flags;
};

struct Row {
  int layers = 0;
  double tau = 0;
  std::string scheduler;
  SimMetrics m;
  bool has_solver = false;
  SolverReport solver;
  std::string failure;  // the scheduler could not run this case
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

Workload flux_paper_workload(int layers) {
  const std::string text = fmt::format(R"({{
  "format": "flux.scenario/1", "name": "Llama-3 8B, {} layers, TP4 x DP2 on 8 A100",
  "model": {{"preset": "llama3-8b", "num_layers": {}}},
  "parallelism": {{"world_size": 8, "tensor_model_parallel_size": 4,
                  "pipeline_model_parallel_size": 1, "rank_order": "tp-cp-ep-dp-pp"}},
  "training": {{"micro_batch_size": 1, "global_batch_size": 2, "seq_length": 2048,
               "params_dtype": "bf16", "accumulate_allreduce_grads_in_fp32": false,
               "ddp_bucket_size": 25000000}},
  "hardware": {{"gpu": "a100", "mfu": 0.5}},
  "collectives": {{"tp": "ring", "dp": "ring"}}}})",
                                       layers, layers);
  return build_workload(parse_scenario(text, "flux bench scenario"));
}

namespace {

Row run_one(const CoschedInstance& inst, const std::string& name, const BenchArgs& a,
            const FluxOptions& options) {
  Row row{0, inst.fabric.reconfig_delay, name, {}, false, {}, {}};
  if (name == "flux" || name == "flux-greedy") {
    const CoschedRun run = run_cosched(inst, name, options);
    row.m = run.sim.metrics;
    row.has_solver = run.has_solver;
    row.solver = run.solver;
    return row;
  }
  SchedulerOptions so;
  if (name == "bvn-periodic") so.frame = a.bvn_frame * inst.fabric.reconfig_delay;
  try {
    row.m = simulate(inst.workload, inst.fabric, name == "bvn-periodic" ? "bvn" : name, so).metrics;
  } catch (const InputError& e) {  // e.g. no static topology connects every pair: report, go on
    row.failure = e.what();
    row.m.iteration_time = row.m.peak_nic_buffer = row.m.peak_waiting_bytes = NAN;
    row.m.peak_nic_buffer_eager = NAN;
  }
  return row;
}

// The smallest value of `metric` among the named schedulers that ran this case (∞ if none did).
double best_of(const std::vector<Row>& rows, int layers, double tau, double SimMetrics::*metric,
               const std::vector<std::string>& names) {
  double best = INFINITY;
  for (const Row& r : rows)
    if (r.layers == layers && r.tau == tau && r.failure.empty() &&
        std::find(names.begin(), names.end(), r.scheduler) != names.end())
      best = std::min(best, r.m.*metric);
  return best;
}

std::string times(double other, double flux) {
  if (flux <= 0) return "inf";
  const double r = other / flux;
  return r < 1000 ? fmt::format("{:.3g}x", r) : fmt::format("{:.0f}x", r);  // never 1e+03x
}

// Flux against each periodic scheduler and the best of them (each metric's best separately):
// other / flux, so above 1 Flux is better. The eager metric's ratio stands beside the buffer's.
void print_claim(const std::vector<Row>& rows, int layers, double tau) {
  const double flux_t = best_of(rows, layers, tau, &SimMetrics::iteration_time, {"flux"});
  if (!std::isfinite(flux_t)) return;
  const double flux_b = best_of(rows, layers, tau, &SimMetrics::peak_nic_buffer, {"flux"});
  const double flux_e = best_of(rows, layers, tau, &SimMetrics::peak_nic_buffer_eager, {"flux"});
  std::vector<std::string> periodic;
  for (const char* name : kPeriodic)
    if (std::isfinite(best_of(rows, layers, tau, &SimMetrics::iteration_time, {name})))
      periodic.emplace_back(name);
  if (periodic.empty()) {
    fmt::print(
        "flux: no periodic scheduler (rotornet, rotornet-vlb, bvn-periodic) ran in this case, "
        "nothing to compare with\n");
    return;
  }
  fmt::print("{:<16} {:>18} {:>21} {:>15}\n", "flux vs", "shorter iteration",
             "less peak NIC buffer", "(eager metric)");
  auto line = [&](const std::string& label, const std::vector<std::string>& names) {
    fmt::print(
        "{:<16} {:>18} {:>21} {:>15}\n", label,
        times(best_of(rows, layers, tau, &SimMetrics::iteration_time, names), flux_t),
        times(best_of(rows, layers, tau, &SimMetrics::peak_nic_buffer, names), flux_b),
        times(best_of(rows, layers, tau, &SimMetrics::peak_nic_buffer_eager, names), flux_e));
  };
  for (const std::string& name : periodic) line(name, {name});
  if (periodic.size() > 1) line("best periodic", periodic);
}

void print_block(const std::vector<Row>& rows, int layers, double tau) {
  fmt::print("\nLlama-3 8B, {} layers, TP4xDP2, 8 GPUs, 2 OCS, tau = {}\n", layers,
             format_time(tau));
  fmt::print("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", "scheduler", "posting",
             "iteration", "peak NIC buf", "waiting", "eager buf", "reconf", "vs ideal", "solver");
  const double ideal = best_of(rows, layers, tau, &SimMetrics::iteration_time, {"ideal"});
  for (const Row& r : rows) {
    if (r.layers != layers || r.tau != tau) continue;
    if (!r.failure.empty()) {  // no schedule: no numbers, just why
      fmt::print("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", r.scheduler, "n/a",
                 "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", r.failure);
      continue;
    }
    std::string solver;
    if (r.has_solver)
      solver = fmt::format("{} gap {:.2f}% {:.1f}s {}w", to_string(r.solver.status),
                           100 * r.solver.gap, r.solver.seconds, r.solver.windows);
    fmt::print("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9.3f}x  {}\n", r.scheduler,
               to_string(r.m.posting), format_time(r.m.iteration_time),
               format_bytes(r.m.peak_nic_buffer), format_bytes(r.m.peak_waiting_bytes),
               format_bytes(r.m.peak_nic_buffer_eager), r.m.reconfigurations,
               r.m.iteration_time / ideal, solver);
  }
  print_claim(rows, layers, tau);
  const double flux_t = best_of(rows, layers, tau, &SimMetrics::iteration_time, {"flux"});
  if (std::isfinite(flux_t) && std::isfinite(ideal))
    fmt::print("flux: {:.3f}x the ideal fabric's iteration time\n", flux_t / ideal);
}

std::string csv(const std::vector<Row>& rows) {
  auto g9 = [](double v) { return fmt::format("{:.9g}", v); };
  std::string out =
      csv_record("layers", "tau_s", "scheduler", "posting", "iteration_time_s", "peak_nic_buffer_B",
                 "peak_waiting_B", "mean_nic_buffer_B", "peak_nic_buffer_total_B",
                 "peak_hbm_held_B", "peak_nic_buffer_eager_B", "reconfigurations", "lower_bound_s",
                 "solver_status", "solver_gap", "solver_s", "failure");
  for (const Row& r : rows)
    append_csv_record(out, r.layers, g9(r.tau), r.scheduler,
                      r.failure.empty() ? to_string(r.m.posting) : "", g9(r.m.iteration_time),
                      g9(r.m.peak_nic_buffer), g9(r.m.peak_waiting_bytes), g9(r.m.mean_nic_buffer),
                      g9(r.m.peak_nic_buffer_total), g9(r.m.peak_hbm_held),
                      g9(r.m.peak_nic_buffer_eager), r.m.reconfigurations, g9(r.m.lower_bound),
                      r.has_solver ? to_string(r.solver.status) : "",
                      r.has_solver ? fmt::format("{:.6g}", r.solver.gap) : "",
                      r.has_solver ? fmt::format("{:.3f}", r.solver.seconds) : "", r.failure);
  return out;
}

void plots(const std::vector<Row>& rows, int layers, const std::vector<std::string>& names,
           const std::string& dir) {
  for (bool buffer : {false, true}) {
    LinePlot p;
    p.title = fmt::format("Llama-3 8B, {} layers, TP4xDP2, 8 GPUs, 2 OCS, 800 Gb/s", layers);
    p.x = {"reconfiguration delay tau (s)", true, {}, {}, false};
    p.y = {buffer ? "peak NIC buffer (bytes)" : "iteration time (s)", true, {}, {}, false};
    for (const std::string& n : names) {
      PlotSeries s{n, {}, {}, n != "flux" && n != "flux-greedy", true, ""};
      for (const Row& r : rows)
        if (r.layers == layers && r.scheduler == n) {
          s.x.push_back(r.tau);
          s.y.push_back(buffer ? std::max(r.m.peak_nic_buffer, 1.0) : r.m.iteration_time);
        }
      p.series.push_back(std::move(s));
    }
    const std::string file =
        fmt::format("{}/{}_{}l.svg", dir, buffer ? "peak_nic_buffer" : "iteration_time", layers);
    write_file_atomic(file, render_svg(p));
  }
}

// Every scheduler in `names` on one (layers, τ) case of the paper's setup, appended to `rows`.
void run_case(const Workload& w, int layers, double tau, const std::vector<std::string>& names,
              const BenchArgs& a, const FluxOptions& options, std::vector<Row>& rows) {
  Fabric f{8, 2, 1e11, 0.0, tau, CircuitKind::duplex, false};
  f.nic_window = parse_time(a.nic_window, "--nic-window");
  const CoschedInstance inst = make_instance(w, f, "llama3-8b");
  for (const auto& n : names) {
    rows.push_back(run_one(inst, n, a, options));
    rows.back().layers = layers;
  }
  print_block(rows, layers, tau);
  std::fflush(stdout);  // long runs: show each block as it completes
}

void run_bench(const BenchArgs& a) {
  const FluxOptions options = a.flags.options();
  const auto names = split(a.schedulers);
  for (const auto& n : names)
    if (n != "flux" && n != "flux-greedy" && n != "bvn-periodic" && !find_scheduler(n))
      throw InputError("", "--schedulers", "known scheduler names, not " + n);
  std::vector<Row> rows;
  std::vector<int> layer_counts;
  for (const auto& l : split(a.layers)) layer_counts.push_back(std::stoi(l));
  for (int layers : layer_counts) {
    const Workload w = flux_paper_workload(layers);
    for (const auto& t : split(a.taus))
      run_case(w, layers, parse_time(t, "--taus"), names, a, options, rows);
  }
  std::filesystem::create_directories(a.out_dir);
  write_file_atomic(a.out_dir + "/flux_bench.csv", csv(rows));
  for (int layers : layer_counts) plots(rows, layers, names, a.out_dir);
  fmt::print("\nwrote {}/flux_bench.csv and SVG figures\n", a.out_dir);
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
  Workload w = build_workload(read_scenario(a.scenario));
  const Fabric f{w.gpus,
                 a.ocs,
                 parse_rate(a.rate, "--rate"),
                 0.0,
                 parse_time(a.tau, "--tau"),
                 CircuitKind::duplex,
                 false};
  std::vector<double> out(w.gpus, 0.0), in(w.gpus, 0.0);  // bytes per GPU and direction
  for (const Task& t : w.tasks)
    if (t.kind == TaskKind::send) out[t.src] += t.bytes, in[t.dst] += t.bytes;
  const double busiest =
      std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
  const double ideal =
      std::max(critical_path(w, 0.0, f.ocs * f.link_rate), busiest / (f.ocs * f.link_rate));
  const std::size_t tasks = w.tasks.size();
  const CoschedInstance inst = make_instance(std::move(w), f, a.scenario);
  fmt::print("{} tasks, {} sends, {} GPUs, {} OCS; built in {:.1f} s\n", tasks,
             inst.message_count(), f.gpus, f.ocs, seconds(t0));
  const auto t1 = Clock::now();
  const auto pl = flux_greedy(inst);
  const double took = seconds(t1), it = iteration_time(inst, pl);
  const auto t2 = Clock::now();
  const FluxBound lb = flux_lower_bound(inst);
  const double lb_took = seconds(t2);
  fmt::print(
      "flux-greedy: iteration {} in {:.2f} s; ideal-fabric bound {} (gap {:.2f}%), "
      "Flux-model bound {} (gap {:.2f}%; critical path {}) in {:.2f} s, {} reconfigurations\n"
      "bound: {}\n",
      format_time(it), took, format_time(ideal), 100 * (it - ideal) / it, format_time(lb.value),
      100 * (it - lb.value) / it, format_time(inst.critical_path), lb_took,
      count_reconfigurations(inst, pl), describe(lb));
  const auto t3 = Clock::now();
  const double fill = iteration_time(inst, slack_gap_fill(inst));
  fmt::print("slack-gap-fill: iteration {} in {:.2f} s (gap to the Flux-model bound {:.2f}%)\n",
             format_time(fill), seconds(t3), 100 * (fill - lb.value) / fill);
}

}  // namespace

void print_flux_paper_case(int layers, double tau, const std::string& time_limit,
                           const std::string& nic_window) {
  BenchArgs a;
  a.flags.time_limit = time_limit;
  a.nic_window = nic_window;
  std::vector<Row> rows;
  run_case(flux_paper_workload(layers), layers, tau, split(a.schedulers), a, a.flags.options(),
           rows);
}

void add_flux_bench_command(CLI::App& app) {
  auto greedy = std::make_shared<GreedyBenchArgs>();
  auto* g = bench_family(app)->add_subcommand(
      "flux-greedy", "flux-greedy on a large scenario built in memory, against the ideal bound");
  g->add_option("--scenario", greedy->scenario, "flux.scenario/1 file")->required();
  g->add_option("--ocs", greedy->ocs, "OCSes")->capture_default_str();
  g->add_option("--tau", greedy->tau, "reconfiguration delay")->capture_default_str();
  g->add_option("--rate", greedy->rate, "link rate per port")->capture_default_str();
  g->callback([greedy] { run_greedy_bench(*greedy); });

  auto args = std::make_shared<BenchArgs>();
  args->flags.time_limit = "300s";
  auto* cmd = bench_family(app)->add_subcommand(
      "flux", "The Flux paper's experiment: Llama-3 8B TP4xDP2 on 8 GPUs, 2 OCSes, tau sweep");
  cmd->add_option("--layers", args->layers, "layer counts, comma-separated")->capture_default_str();
  cmd->add_option("--taus", args->taus, "reconfiguration delays")->capture_default_str();
  cmd->add_option("--schedulers", args->schedulers, "schedulers")->capture_default_str();
  cmd->add_option("--bvn-frame", args->bvn_frame, "bvn-periodic frame length in units of tau")
      ->capture_default_str();
  cmd->add_option("--nic-window", args->nic_window,
                  "NIC staging window per message on the wire, as time at line rate")
      ->capture_default_str();
  cmd->add_option("--out-dir", args->out_dir, "CSV and SVG output folder")->capture_default_str();
  args->flags.add_to(*cmd);
  cmd->callback([args] { run_bench(*args); });
}

}  // namespace flux::cli
