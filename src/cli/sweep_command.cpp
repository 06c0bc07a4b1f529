// `flux sweep plan|run|slurm|merge|status`: grids of simulator runs described by a flux.sweep/1
// file, run locally in worker processes or as a Slurm job array, merged into one table.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "sweep/slurm.hpp"
#include "sweep/sweep_results.hpp"
#include "sweep/sweep_run.hpp"

namespace flux::cli {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string sweep, out, shard, output;
  std::size_t jobs = 1;
  bool retry_failed = false, submit = false, quiet = false;
  sweep::SlurmJob slurm;
  std::size_t shards = 0;
};

void run_plan(const SweepArgs& a) {
  const sweep::Sweep sweep = sweep::read_sweep(a.sweep);
  fmt::print("{}", describe_plan(sweep, plan_sweep(sweep)));
}

void run_run(const SweepArgs& a) {
  const sweep::Sweep sweep = sweep::read_sweep(a.sweep);
  const sweep::SweepPlan plan = plan_sweep(sweep);
  sweep::SweepRunOptions o{a.out, a.jobs, sweep::shard_from_environment(), a.retry_failed};
  if (!a.shard.empty()) o.shard = sweep::parse_shard(a.shard, "--shard");
  const sweep::SweepRunTally t = run_sweep(sweep, plan, o, *make_stderr_progress(a.quiet));
  fmt::print("shard {}/{}: ran {} cells ({} failed), {} already complete; {}\n", o.shard.index,
             o.shard.count, t.ran, t.failed, t.skipped, a.out);
}

void run_slurm(SweepArgs a) {
  const sweep::Sweep sweep = sweep::read_sweep(a.sweep);
  const sweep::SweepPlan plan = plan_sweep(sweep);
  sweep::SlurmJob& job = a.slurm;
  job.flux = fs::read_symlink("/proc/self/exe").string();
  job.sweep_file = fs::absolute(a.sweep).lexically_normal().string();
  job.out = fs::absolute(a.out).lexically_normal().string();
  job.shards = a.shards ? a.shards : std::min<std::size_t>(plan.cells.size(), 100);
  if (job.shards > plan.cells.size())
    throw InputError("", "--shards",
                     fmt::format("at most one task per cell ({} cells)", plan.cells.size()));
  check_slurm_job(job);
  prepare_sweep_dir(sweep::SweepDir{job.out}, sweep,
                    plan);  // `flux sweep status` works from now on
  const fs::path dir = fs::path(job.out) / "slurm";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(job.out, "--out", "a folder that can be created (" + ec.message() + ")");
  const std::string array = (dir / "array.sbatch").string(),
                    merge = (dir / "merge.sbatch").string();
  write_file_now(array, slurm_array_script(job));
  write_file_now(merge, slurm_merge_script(job));
  fmt::print("{} cells in {} array tasks: wrote {} and {}\n", plan.cells.size(), job.shards, array,
             merge);
  if (!a.submit) {
    fmt::print("submit with: sbatch {} (then the merge with --dependency=afterany:JOBID)\n", array);
    return;
  }
  const auto [array_id, merge_id] = sweep::submit_slurm(array, merge);
  fmt::print("submitted array job {} and merge job {} (writes {}/results.csv)\n", array_id,
             merge_id, job.out);
}

void run_merge(const SweepArgs& a) {
  write_file_atomic(a.output, merge_sweep(sweep::SweepDir{a.out}));
  const sweep::SweepStatus s = sweep_status(sweep::SweepDir{a.out});
  fmt::print("wrote {}: {} cells, {} done, {} failed, {} missing\n", a.output, s.cells, s.done,
             s.failed, s.missing);
}

void run_status(const SweepArgs& a) {
  const sweep::SweepStatus s = sweep_status(sweep::SweepDir{a.out});
  fmt::print("{} cells: {} done, {} failed, {} missing", s.cells, s.done, s.failed, s.missing);
  if (s.partial) fmt::print(" ({} being written or left by a killed run)", s.partial);
  fmt::print("\n");
}

}  // namespace

void add_sweep_commands(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* sweep = app.add_subcommand("sweep", "Grids of simulator runs from a flux.sweep/1 file");
  sweep->require_subcommand(1);

  auto* plan = sweep->add_subcommand("plan", "Check a sweep file and print its cells");
  plan->add_option("sweep", args->sweep, "flux.sweep/1 file")->required();
  plan->callback([args] { run_plan(*args); });

  auto* run = sweep->add_subcommand("run", "Run the missing cells of a sweep (or of one shard)");
  run->add_option("sweep", args->sweep, "flux.sweep/1 file")->required();
  run->add_option("--out-dir,-o,--out", args->out, "output folder (shared by every shard)")
      ->required();
  run->add_option("-j,--jobs", args->jobs, "cells run at once, each in its own process")
      ->capture_default_str();
  run->add_option("--shard", args->shard,
                  "run slice I of N (default: from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT)");
  run->add_flag("--retry-failed", args->retry_failed, "run failed cells again");
  run->add_flag("-q,--quiet", args->quiet, "no progress on stderr");
  run->callback([args] { run_run(*args); });

  auto* slurm = sweep->add_subcommand("slurm", "Write (and submit) a Slurm job array for a sweep");
  slurm->add_option("sweep", args->sweep, "flux.sweep/1 file")->required();
  slurm
      ->add_option("--out-dir,-o,--out", args->out,
                   "output folder on a file system the nodes share")
      ->required();
  slurm->add_option("--shards", args->shards, "array tasks (default: cells, at most 100)");
  slurm->add_option("--partition", args->slurm.partition,
                    "Slurm partition (default: the cluster's)");
  slurm->add_option("--time", args->slurm.time,
                    "time limit per array task in sbatch's form, e.g. 2:00:00 (default: the "
                    "partition's)");
  slurm->add_option("--mem", args->slurm.mem,
                    "memory per array task in sbatch's form, e.g. 16G (default: the partition's)");
  slurm->add_option("--cpus", args->slurm.cpus, "CPUs per array task, its cells run at once")
      ->capture_default_str();
  slurm->add_option("--name", args->slurm.name, "job name")->capture_default_str();
  slurm->add_flag("--submit", args->submit, "submit both jobs with sbatch");
  slurm->callback([args] { run_slurm(*args); });

  auto* merge = sweep->add_subcommand("merge", "One CSV row per cell of a sweep folder");
  merge->add_option("dir", args->out, "sweep output folder")->required();
  merge->add_option("-o,--output", args->output, "CSV file")->required();
  merge->callback([args] { run_merge(*args); });

  auto* status = sweep->add_subcommand("status", "Count done, failed and missing cells");
  status->add_option("dir", args->out, "sweep output folder")->required();
  status->callback([args] { run_status(*args); });
}

}  // namespace flux::cli
