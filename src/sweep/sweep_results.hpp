#pragma once
// What a sweep folder holds, read back: counts of done / failed / missing cells, and the merged
// table, one row per planned cell in plan order: the cell id, its status, every axis value, every
// metric of its summary.json (column names carry their unit: _s seconds, _B bytes), its wall time
// and its error. Written with the RFC 4180 writer, so pandas and R read it as is.
#include <cstddef>
#include <string>

#include "sweep/sweep_dir.hpp"

namespace flux::sweep {

struct SweepStatus {
  std::size_t cells = 0, done = 0, failed = 0, missing = 0;
  std::size_t partial = 0;  // cell folders being written (or left by a killed process)
};

[[nodiscard]] SweepStatus sweep_status(const SweepDir& dir);
// InputError naming the file of a cell whose status.json or summary.json does not read.
[[nodiscard]] std::string merge_sweep(const SweepDir& dir);

}  // namespace flux::sweep
