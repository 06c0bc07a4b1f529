#include "sweep/slurm.hpp"

#include <fmt/format.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>

#include "core/error.hpp"

namespace flux::sweep {

namespace {

// One shell word: single-quoted, each ' written '\''.
std::string quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void check_directive(const std::string& value, const std::string& flag) {
  if (value.find_first_of(" \t\n\r\"'\\") != std::string::npos)
    throw InputError("", flag,
                     fmt::format("a value without whitespace or quotes (sbatch directives cannot "
                                 "quote them), got \"{}\"",
                                 value));
}

std::string common_directives(const SlurmJob& job) {
  std::string out = fmt::format("#SBATCH --chdir={}\n", job.out);
  if (!job.partition.empty()) out += fmt::format("#SBATCH --partition={}\n", job.partition);
  if (!job.time.empty()) out += fmt::format("#SBATCH --time={}\n", job.time);
  if (!job.mem.empty()) out += fmt::format("#SBATCH --mem={}\n", job.mem);
  return out;
}

// Runs `command` through the shell; its standard output, or InputError with its output.
std::string run_capture(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) throw InputError("", "--submit", "a shell to run sbatch");
  std::string out;
  std::array<char, 512> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status != 0 || out.empty())
    throw InputError("", "--submit",
                     fmt::format("sbatch to accept the job ({}: {})", command,
                                 out.empty() ? "no output" : out.substr(0, out.find('\n'))));
  return out;
}

// `sbatch --parsable` prints "jobid" or "jobid;cluster".
std::string job_id(const std::string& reply) {
  return reply.substr(0, reply.find(';'));
}

}  // namespace

void check_slurm_job(const SlurmJob& job) {
  check_directive(job.out, "--out-dir");
  check_directive(job.name, "--name");
  check_directive(job.partition, "--partition");
  check_directive(job.time, "--time");
  check_directive(job.mem, "--mem");
  if (job.shards < 1) throw InputError("", "--shards", "at least 1 array task");
  if (job.cpus < 1) throw InputError("", "--cpus", "at least 1 CPU per task");
}

std::string slurm_array_script(const SlurmJob& job) {
  return fmt::format(
      "#!/bin/bash\n"
      "#SBATCH --job-name={}\n"
      "#SBATCH --array=0-{}\n"
      "#SBATCH --cpus-per-task={}\n"
      "#SBATCH --output=slurm/array-%A_%a.log\n"
      "{}"
      "# Written by `flux sweep slurm`. Task k runs shard k of {} (from SLURM_ARRAY_TASK_ID\n"
      "# and SLURM_ARRAY_TASK_COUNT); complete cells are skipped, so resubmitting this script\n"
      "# after a timeout or a node failure runs only what is missing.\n"
      "set -euo pipefail\n"
      "exec {} sweep run {} --out-dir {} --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"\n",
      job.name, job.shards - 1, job.cpus, common_directives(job), job.shards, quote(job.flux),
      quote(job.sweep_file), quote(job.out));
}

std::string slurm_merge_script(const SlurmJob& job) {
  return fmt::format(
      "#!/bin/bash\n"
      "#SBATCH --job-name={}-merge\n"
      "#SBATCH --output=slurm/merge-%j.log\n"
      "{}"
      "# Written by `flux sweep slurm`: runs after every array task has ended (afterany) and\n"
      "# writes the merged table; cells of failed or cancelled tasks show as missing.\n"
      "set -euo pipefail\n"
      "{} sweep status {}\n"
      "exec {} sweep merge {} -o {}\n",
      job.name, common_directives(job), quote(job.flux), quote(job.out), quote(job.flux),
      quote(job.out), quote(job.out + "/results.csv"));
}

std::pair<std::string, std::string> submit_slurm(const std::string& array_script,
                                                 const std::string& merge_script) {
  const std::string array = job_id(run_capture("sbatch --parsable " + quote(array_script)));
  const std::string merge = job_id(run_capture(
      fmt::format("sbatch --parsable --dependency=afterany:{} {}", array, quote(merge_script))));
  return {array, merge};
}

}  // namespace flux::sweep
