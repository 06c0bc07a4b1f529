#pragma once
// The output folder of a sweep, shared by every process that runs part of it (local workers,
// Slurm array tasks on other nodes):
//   plan.json           every cell's id and axis values, in plan order (flux.sweep-plan/1)
//   cells/<id>/         one complete cell: params.json, status.json, summary.json, outputs
//   cells/.partial-<id>-XXXXXX/   a cell being written; renamed to cells/<id> when complete
// A cell folder appears only by that rename, so it is complete by construction.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/sweep_plan.hpp"

namespace flux::sweep {

struct SweepDir {
  std::string root;
  [[nodiscard]] std::string plan_file() const;
  [[nodiscard]] std::string cells() const;
  [[nodiscard]] std::string cell(const std::string& id) const;
  [[nodiscard]] std::string partial_prefix(const std::string& id) const;
};

struct PlannedCell {
  std::string id;
  nlohmann::json axes;  // name -> value (null: the axis did not apply)
};

struct SweepPlanFile {
  std::vector<std::string> axes;
  std::vector<PlannedCell> cells;
};

// Creates the folder and writes plan.json, or checks that the one there is this sweep's: a folder
// holding another sweep's cells is an InputError (on plan.json).
void prepare_sweep_dir(const SweepDir& dir, const Sweep& sweep, const SweepPlan& plan);
// Reads plan.json strictly; InputError naming it.
[[nodiscard]] SweepPlanFile read_plan_file(const SweepDir& dir);

}  // namespace flux::sweep
