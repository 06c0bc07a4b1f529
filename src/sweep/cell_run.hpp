#pragma once
// One cell run in this process: its workload built (or read), its fabric read, its scheduler run
// through the registry and replayed, and the files it asked for as {name, content}: summary.json
// (the same document `flux simulate` writes) first, then the sweep's outputs.
#include <string>
#include <utility>
#include <vector>

#include "sweep/sweep_file.hpp"
#include "sweep/sweep_plan.hpp"

namespace flux::sweep {

using CellFiles = std::vector<std::pair<std::string, std::string>>;

// InputError when the cell's inputs do not read or its scheduler refuses them.
[[nodiscard]] CellFiles run_cell(const Sweep& sweep, const SweepCell& cell);

}  // namespace flux::sweep
