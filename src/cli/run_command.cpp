// `flux run`: Flux's main job on built-in defaults, in two parts.
// 1. Spectra against the Spectra paper's baseline on the built-in matrices (synthetic n = 100 and
//    GPT-32, seed 1), s in {4, 16}, delta in {.01, .02, .04, .08}, through the shared bench runner:
//    every schedule verified and checked against the lower bound.
// 2. The Flux paper's 8-GPU scenario (Llama-3 8B, 8 layers, TP4 x DP2, 2 OCSes, 800 Gb/s) under
//    every workload scheduler at one reconfiguration delay, each schedule replayed and checked by
//    the simulator.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/scheduler_flags.hpp"
#include "core/units.hpp"
#include "experiments/flux_sweep.hpp"
#include "experiments/main_job.hpp"
#include "experiments/paper_setup.hpp"

namespace flux::cli {
namespace {

struct RunArgs {
  bool all = false;  // every registered algorithm instead of spectra / spectra-ref / baseline
  std::uint64_t seed = 1;
  std::string tau = "100us";       // the fabric part's reconfiguration delay
  std::string time_limit = "10s";  // Flux's MILP budget in the fabric part
  std::string nic_window = "1us";  // the fabric part's NIC staging window
  bool matrix_only = false;
};

void run_main_job(const RunArgs& a) {
  const experiments::BenchGrid grid = experiments::main_job_grid(a.seed, a.all);
  fmt::print(
      "flux {}: Spectra vs the paper's baseline, normalised units (the busiest port "
      "needs 1)\n\n",
      FLUX_VERSION);
  const experiments::BenchResult r = run_matrix_bench(grid, progress());
  if (!r.failures.empty())
    throw std::logic_error(fmt::format("{} of {} schedules failed a check; first: {}",
                                       r.failures.size(), r.schedules, r.failures.front()));
  fmt::print("{}{}", main_job_table(grid, r), experiments::main_job_legend());
  fmt::print("\n{} schedules, every one verified and at or above its lower bound\n", r.schedules);
  if (a.matrix_only) return;
  fmt::print("\nFlux vs the periodic and aggregate OCS schedulers, replayed by the simulator\n");
  experiments::FluxSweep sweep = experiments::paper_flux_sweep();
  sweep.failure_text = naming_flag;
  const OptionSpec& limit =
      *find_option(schedulers::workload_scheduler("flux").options, "time_limit");
  sweep.options["flux"].set("time_limit", parse_option(limit, a.time_limit, "--time-limit"));
  sweep.fabric.nic_window = parse_time(a.nic_window, "--nic-window");
  const double tau = parse_time(a.tau, "--tau");
  std::vector<experiments::FluxSweepRow> rows;
  {
    ProgressStage cells(progress(), "fabric part", static_cast<double>(sweep.schedulers.size()));
    rows = run_flux_case(sweep, experiments::paper_workload(8), 8, tau, progress());
  }
  fmt::print("{}{}", flux_case_table(sweep, rows, 8, tau), experiments::flux_case_legend());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* run = app.add_subcommand("run", "Flux's main job on the built-in default scenario");
  run->add_flag("--all", args->all, "compare every registered matrix algorithm");
  run->add_option("--seed", args->seed, "matrix seed")->capture_default_str();
  run->add_option("--tau", args->tau, "reconfiguration delay of the fabric part")
      ->type_name("TIME")
      ->capture_default_str();
  run->add_option("--nic-window", args->nic_window,
                  "NIC staging window per message on the wire, as time at line rate")
      ->type_name("TIME")
      ->capture_default_str();
  run->add_option("--time-limit", args->time_limit, "Flux MILP time limit")
      ->type_name("TIME")
      ->capture_default_str();
  run->add_flag("--matrix-only", args->matrix_only, "only the Spectra part");
  run->callback([args] { run_main_job(*args); });
}

}  // namespace flux::cli
