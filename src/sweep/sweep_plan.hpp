#pragma once
// The cells of a sweep: every combination of the axes' values (zip groups advance together, the
// first axis varies slowest), each with its parameters and a stable id, the first 16 hex digits of
// the SHA-256 of the parameters' canonical JSON (keys sorted, no spaces). Combinations that end
// with the same parameters (an option axis on a scheduler without that option) are one cell.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/cell_inputs.hpp"
#include "sweep/sweep_file.hpp"

namespace flux::sweep {

// Each planned cell holds its scenario and fabric documents (a few kB): 1e5 cells stay within
// about a GB.
inline constexpr std::size_t kMaxSweepCells = 100000;

struct SweepCell {
  std::string id;
  // {"axes", "scenario" or "workload", "fabric", "scheduler", "options", "outputs"}
  nlohmann::json params;
};

struct SweepPlan {
  std::vector<SweepCell> cells;
  std::size_t combinations = 0;  // before equal cells were merged
};

// InputError (the sweep file, "/axes") beyond kMaxSweepCells combinations.
[[nodiscard]] SweepPlan plan_sweep(const Sweep& sweep);
[[nodiscard]] CellInputs inputs_of(const SweepCell& cell);

// Slice `index` of `count`: cells index, index + count, index + 2 count, ... of the plan (an
// interleave, so slices of a grid ordered by size get similar work).
struct Shard {
  std::size_t index = 0, count = 1;
};
// "I/N" with 0 <= I < N; InputError on `label`.
[[nodiscard]] Shard parse_shard(const std::string& text, const std::string& label);
// From SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT when set, else
// the whole plan.
[[nodiscard]] Shard shard_from_environment();
[[nodiscard]] std::vector<std::size_t> shard_cells(std::size_t cells, Shard shard);

// "<id>  axis=value ..." ("-" where the axis does not apply).
[[nodiscard]] std::string cell_text(const Sweep& sweep, const SweepCell& cell);
// What `flux sweep plan` prints: counts, a few cells, and the largest cell by the scenario-size
// estimate (cells whose scenario does not read are counted, the first error shown).
[[nodiscard]] std::string describe_plan(const Sweep& sweep, const SweepPlan& plan,
                                        std::size_t examples = 5);

}  // namespace flux::sweep
