#include "fabric/run_budget.hpp"

#include <fmt/format.h>

#include <algorithm>

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
// A circuit record's share of each file that lists it, measured on `rotornet` (16-layer GPT-3
// example, 1,024 GPUs, 526,602 records): 27 bytes of circuits.csv, 58 of circuit-schedule.json,
// and the rest of the 270 for its two timeline.json events.
constexpr double kCsvBytesPerCircuit = 27;
constexpr double kScheduleBytesPerCircuit = 58;
constexpr double kBytesPerCircuit = 270;
constexpr double kTimelineBytesPerCircuit =
    kBytesPerCircuit - kCsvBytesPerCircuit - kScheduleBytesPerCircuit;

double bytes_per_circuit(CircuitOutputs o) {
  return (o.csv ? kCsvBytesPerCircuit : 0) + (o.schedule ? kScheduleBytesPerCircuit : 0) +
         (o.timeline ? kTimelineBytesPerCircuit : 0);
}

// What bounds the circuit records of a run writing `o`: its files, or without them the memory.
std::string records_limit(CircuitOutputs o) {
  if (o.any()) return fmt::format("{:.3g} GB of output", kMaxOutputBytes / 1e9);
  return fmt::format("{:.3g} GB of circuit records in memory", kMaxCircuitRecordBytes / 1e9);
}

// Circuit records grow with the iteration only when a frame repeats.
constexpr const char* kPeriodicAdvice =
    "a periodic scheduler repeats its frame over the whole iteration: try a longer frame or slot "
    "(--bvn-frame for bvn-periodic, --frame for bvn, --slot for rotornet)";
}  // namespace

CircuitOutputs CircuitOutputs::among(const std::vector<std::string>& files) {
  const auto has = [&](std::string_view name) {
    return std::find(files.begin(), files.end(), name) != files.end();
  };
  return {has("circuits.csv"), has("circuit-schedule.json"), has("timeline.json"),
          has("nic_buffer.csv") || has("timeline.json")};
}

ScheduleOverBudget::ScheduleOverBudget(std::string limit_, std::string size_, std::string advice_)
    : std::runtime_error("a schedule over budget: " + size_),
      limit(std::move(limit_)),
      size(std::move(size_)),
      advice(std::move(advice_)) {}

std::size_t max_circuit_records() {
  return max_circuit_records(CircuitOutputs{});
}

std::size_t max_circuit_records(CircuitOutputs outputs) {
  if (!outputs.any())
    return static_cast<std::size_t>(kMaxCircuitRecordBytes / sizeof(TimedCircuit));
  return static_cast<std::size_t>(kMaxOutputBytes / bytes_per_circuit(outputs));
}

CircuitRecordsOverBudget circuit_records_over_budget(std::size_t records, CircuitOutputs outputs) {
  return {records_limit(outputs), fmt::format("at least {} circuit records", records),
          kPeriodicAdvice};
}

ScheduleOverBudget hops_over_budget(std::size_t hops) {
  return {fmt::format("{:.3g} hops ({:.3g} GB of memory)", kMaxHops, kMaxHops * sizeof(Hop) / 1e9),
          fmt::format("at least {} hops", hops),
          "a hop is one piece of a message sent on one circuit or one slot: a schedule that splits "
          "messages into fewer pieces (for a periodic scheduler a longer --slot) or a smaller "
          "workload"};
}

void refuse_schedule(const ScheduleOverBudget& over, std::string_view scheduler,
                     const std::string& file, const std::string& field) {
  throw InputError(file, field,
                   fmt::format("a schedule of at most {}; the {} schedule has {} ({})", over.limit,
                               scheduler, over.size, over.advice));
}

void check_output_budget(const TimedSchedule& s, std::string_view scheduler,
                         const std::string& fabric_file, CircuitOutputs outputs) {
  const std::size_t records = s.circuits.size();
  if (records <= max_circuit_records(outputs)) return;
  const double n = static_cast<double>(records);
  const std::string size = outputs.any()
                               ? fmt::format("{} circuit records, about {:.3g} GB of files",
                                             records, n * bytes_per_circuit(outputs) / 1e9)
                               : fmt::format("{} circuit records, about {:.3g} GB in memory",
                                             records, n * sizeof(TimedCircuit) / 1e9);
  refuse_schedule({records_limit(outputs), size, kPeriodicAdvice}, scheduler, fabric_file);
}

}  // namespace flux::fabric
