#pragma once
// Runs the missing cells of a sweep (or of one shard of it) in worker processes: each cell is a
// fork of this process that writes into cells/.partial-<id>-XXXXXX; the parent adds params.json
// and status.json and renames the folder to cells/<id>. A cell that fails (a bad combination, a
// crash, a kill) is recorded as failed with its one-line error and the others go on; SIGINT or
// SIGTERM stops the workers, removes every partial folder and ends the process with 128 + signal.
#include <cstddef>
#include <string>

#include "core/progress.hpp"
#include "sweep/sweep_dir.hpp"
#include "sweep/sweep_plan.hpp"

namespace flux::sweep {

struct SweepRunOptions {
  std::string out;
  std::size_t jobs = 1;
  Shard shard;
  bool retry_failed = false;  // run failed cells again instead of skipping them
};

struct SweepRunTally {
  std::size_t ran = 0, failed = 0, skipped = 0;  // failed counts among ran
};

// Progress: a "sweep" stage counting the cells to run, and per finished cell a stage named by its
// id whose summary is its status, wall time and axis values (a failed cell's error too).
[[nodiscard]] SweepRunTally run_sweep(const Sweep& sweep, const SweepPlan& plan,
                                      const SweepRunOptions& options,
                                      Progress& progress = no_progress());

}  // namespace flux::sweep
