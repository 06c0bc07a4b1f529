#include "fabric/run_budget.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/limits.hpp"

namespace flux::fabric {

void check_scheduler_budget(const Fabric& f, std::string_view scheduler,
                            const std::string& fabric_file) {
  const double n = f.gpus;
  // The demand matrix, its symmetrised or rate-scaled copy and the decomposition's working copy.
  constexpr double kMatrices = 3;
  if (scheduler == "static" || scheduler == "bvn" || scheduler == "spectra-phase") {
    const double bytes = kMatrices * n * n * sizeof(double);
    if (bytes > kMaxSchedulerBytes)
      throw InputError(
          fabric_file, "--scheduler",
          fmt::format("a fabric small enough for {}: it holds {}x{} demand matrices, about "
                      "{:.3g} GB (at most {:.3g} GB); use fewer GPUs or the rotornet or ideal "
                      "scheduler",
                      scheduler, f.gpus, f.gpus, bytes / 1e9, kMaxSchedulerBytes / 1e9));
  }
  if (scheduler.rfind("rotornet", 0) == 0) {
    const double steps = n * (n - 1);
    if (steps > kMaxCycleSteps)
      throw InputError(
          fabric_file, "--scheduler",
          fmt::format("a fabric small enough for {}: one matching cycle visits {:.3g} GPU "
                      "pairs (at most {:.3g}); use fewer GPUs",
                      scheduler, steps, kMaxCycleSteps));
  }
}

void check_output_budget(const TimedSchedule& s, std::string_view scheduler,
                         const std::string& fabric_file) {
  constexpr double kBytesPerCircuit = 270;  // measured over the three files that list circuits
  const double bytes = static_cast<double>(s.circuits.size()) * kBytesPerCircuit;
  if (bytes > kMaxOutputBytes)
    throw InputError(
        fabric_file, "--scheduler",
        fmt::format("a schedule of at most {:.3g} GB of output; the {} schedule has "
                    "{} circuit records, about {:.3g} GB of files (a periodic scheduler "
                    "repeats its frame over the whole iteration: try a longer "
                    "--frame or --slot)",
                    kMaxOutputBytes / 1e9, scheduler, s.circuits.size(), bytes / 1e9));
}

}  // namespace flux::fabric
