// `flux matrix bench`: the Spectra paper's comparison grid in one command.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/provenance.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/file_output.hpp"
#include "experiments/matrix_bench_output.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::cli {
namespace {

struct BenchArgs {
  bool quick = false;
  std::optional<int> trials;  // default 3, or 1 with --quick
  std::vector<int> switches = {4, 8, 16};
  std::vector<double> deltas = {0.01, 0.02, 0.04, 0.08};
  std::vector<std::string> workloads;   // empty = all of the mode
  std::vector<std::string> algorithms;  // empty = every registered one
  std::uint64_t seed = 1;
  std::string out = "out/matrix-bench";  // out/ is git-ignored
  bool progress = false;
  std::string from_csv;  // set: redraw the figures of this earlier CSV, run nothing
};

const experiments::BenchWorkload* find_workload(const std::vector<experiments::BenchWorkload>& list,
                                                const std::string& name) {
  for (const experiments::BenchWorkload& w : list)
    if (w.name == name) return &w;
  return nullptr;
}

// By name; --quick only shortens the default list and the sweeps, every workload stays available.
std::vector<experiments::BenchWorkload> select_workloads(const BenchArgs& a) {
  const std::vector<experiments::BenchWorkload> mode = experiments::paper_workloads(a.quick),
                                                full = experiments::paper_workloads(false);
  if (a.workloads.empty()) return mode;
  std::vector<experiments::BenchWorkload> chosen;
  for (const std::string& name : a.workloads) {
    const experiments::BenchWorkload* w = find_workload(mode, name);
    if (!w) w = find_workload(full, name);
    if (!w) {
      std::string known;
      for (const experiments::BenchWorkload& k : full)
        known += (known.empty() ? "" : ", ") + k.name;
      throw InputError("", "--workloads", "names among " + known + "; got '" + name + "'");
    }
    chosen.push_back(*w);
  }
  return chosen;
}

experiments::BenchGrid make_grid(const BenchArgs& a) {
  for (double d : a.deltas)
    if (!std::isfinite(d)) throw InputError("", "--taus", "finite numbers >= 0");
  experiments::BenchGrid g;
  g.workloads = select_workloads(a);
  g.switches =
      a.quick && a.switches == std::vector<int>{4, 8, 16} ? std::vector<int>{4, 16} : a.switches;
  g.deltas = a.deltas;
  g.trials = a.trials.value_or(a.quick ? 1 : 3);
  g.seed = a.seed;
  g.algorithms = a.algorithms.empty() ? experiments::default_bench_algorithms() : a.algorithms;
  for (const std::string& name : g.algorithms)
    if (!matrix_schedulers::find_matrix_algorithm(name))
      throw InputError("", "--algorithms", "registered algorithm names; got '" + name + "'");
  if (std::find(g.algorithms.begin(), g.algorithms.end(), g.baseline) == g.algorithms.end())
    g.algorithms.insert(g.algorithms.begin(), g.baseline);
  return g;
}

void write_figures(const std::filesystem::path& dir, const experiments::BenchGrid& g,
                   const experiments::BenchResult& r) {
  for (const experiments::BenchWorkload& w : g.workloads)
    for (int s : g.switches)
      write_file_atomic((dir / fmt::format("{}-s{}.svg", w.name, s)).string(),
                        bench_svg(g, r, w, s));
}

void write_outputs(const BenchArgs& a, const experiments::BenchGrid& g,
                   const experiments::BenchResult& r, const CLI::App& cmd) {
  const std::filesystem::path dir(a.out);
  write_with_sidecar((dir / "matrix-bench.csv").string(), bench_csv(r),
                     command_provenance(cmd, {}));
  write_figures(dir, g, r);
}

// The figures of an earlier run's CSV, drawn as that run drew them.
void replot(const BenchArgs& a) {
  const experiments::BenchCsv csv = experiments::read_bench_csv(read_file(a.from_csv), a.from_csv);
  prepare_output_dir(a.out, "--out-dir");
  write_figures(a.out, csv.grid, csv.result);
  fmt::print("wrote {} figures of {} to {}\n", csv.grid.workloads.size() * csv.grid.switches.size(),
             a.from_csv, a.out);
}

void run_bench(const BenchArgs& a, const CLI::App& cmd) {
  if (!a.from_csv.empty()) return replot(a);
  const experiments::BenchGrid g = make_grid(a);
  prepare_output_dir(a.out, "--out-dir");  // before the long run
  const experiments::BenchResult r = run_matrix_bench(g, progress());
  fmt::print("{}", bench_table(g, r));
  write_outputs(a, g, r, cmd);
  fmt::print("wrote {}/matrix-bench.csv and {} figures\n", a.out,
             g.workloads.size() * g.switches.size());
  if (!r.failures.empty()) {
    for (const std::string& f : r.failures) fmt::print(stderr, "{}\n", f);
    throw std::runtime_error(fmt::format("{} schedules failed verification", r.failures.size()));
  }
}

}  // namespace

void add_matrix_bench_command(CLI::App& matrix) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = matrix.add_subcommand(
      "bench", "Run the Spectra paper's grid: every workload x s x delta x algorithm, verified");
  cmd->add_flag("--quick", args->quick,
                "CI smoke run: 1 trial, s in {4,16}, synthetic/GPT-32/MoE-64 and 3-point sweeps");
  cmd->add_option("--trials", args->trials,
                  "matrices per workload and grid point (default 3; 1 with --quick)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--ocs,--switches", args->switches, "numbers of OCSes s, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--taus,--deltas", args->deltas,
                  "reconfiguration delays, normalised (busiest port = 1), comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--workloads", args->workloads,
                  "subset of workloads by name, comma-separated (default: all)")
      ->delimiter(',')
      ->default_str("");
  cmd->add_option("--algorithms", args->algorithms,
                  "subset of registered algorithms, comma-separated (default: all)")
      ->delimiter(',')
      ->default_str("");
  cmd->add_option("--seed", args->seed, "seed of trial 0 (trial t uses seed + t)");
  cmd->add_option("--out-dir,--out", args->out,
                  "directory for matrix-bench.csv and the SVG figures");
  cmd->add_option("--from-csv", args->from_csv,
                  "redraw the SVG figures of an earlier run's matrix-bench.csv into --out-dir "
                  "without running anything")
      ->type_name("FILE");
  // Progress is on by default now (the global --quiet turns it off); the flag stays so that
  // scripts written for it keep working.
  cmd->add_flag("--progress", args->progress, "accepted for old scripts: progress is the default");
  cmd->callback([args, cmd] { run_bench(*args, *cmd); });
}

}  // namespace flux::cli
