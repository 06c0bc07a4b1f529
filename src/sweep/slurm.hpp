#pragma once
// A sweep on a Slurm cluster: an sbatch script for a job array whose task k runs shard k of the
// sweep (`flux sweep run` takes its shard from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT),
// and a merge script submitted with --dependency=afterany on the array, so the table is written
// once every task has ended, whatever their outcome. Resubmitting runs only the missing cells.
#include <cstddef>
#include <string>
#include <utility>

namespace flux::sweep {

struct SlurmJob {
  std::string flux;        // the flux binary, an absolute path the nodes can run
  std::string sweep_file;  // absolute
  std::string out;         // absolute; must be on a file system every node shares
  std::string name = "flux-sweep";
  std::size_t shards = 1;
  std::string partition, time, mem;  // empty: the cluster's defaults
  int cpus = 1;                      // per task; the task runs that many cells at once
};

// InputError (on the flag) for a value sbatch directives cannot carry (whitespace, quotes).
void check_slurm_job(const SlurmJob& job);
[[nodiscard]] std::string slurm_array_script(const SlurmJob& job);
[[nodiscard]] std::string slurm_merge_script(const SlurmJob& job);
// `sbatch --parsable` on both scripts, the merge one depending on the array; the two job ids.
// InputError when sbatch cannot be run or refuses a script (its message included).
[[nodiscard]] std::pair<std::string, std::string> submit_slurm(const std::string& array_script,
                                                               const std::string& merge_script);

}  // namespace flux::sweep
