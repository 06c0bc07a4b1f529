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

namespace {
constexpr double kBytesPerCircuit = 270;  // measured over the three files that list circuits

// `size` says how many circuit records the schedule has, and how many bytes of files that is.
[[noreturn]] void refuse(const std::string& size, std::string_view scheduler,
                         const std::string& fabric_file) {
  throw InputError(fabric_file, "--scheduler",
                   fmt::format("a schedule of at most {:.3g} GB of output; the {} schedule has "
                               "{} (a periodic scheduler repeats its frame over the whole "
                               "iteration: try a longer --frame or --slot)",
                               kMaxOutputBytes / 1e9, scheduler, size));
}
}  // namespace

std::size_t max_circuit_records() {
  return static_cast<std::size_t>(kMaxOutputBytes / kBytesPerCircuit);
}

OutputOverBudget::OutputOverBudget(std::size_t n)
    : std::runtime_error("a schedule over the output budget"), records(n) {}

void refuse_output(const OutputOverBudget& s, std::string_view scheduler,
                   const std::string& fabric_file) {
  refuse(fmt::format("at least {} circuit records", s.records), scheduler, fabric_file);
}

void check_output_budget(const TimedSchedule& s, std::string_view scheduler,
                         const std::string& fabric_file) {
  if (s.circuits.size() > max_circuit_records())
    refuse(fmt::format("{} circuit records, about {:.3g} GB of files", s.circuits.size(),
                       static_cast<double>(s.circuits.size()) * kBytesPerCircuit / 1e9),
           scheduler, fabric_file);
}

}  // namespace flux::fabric
