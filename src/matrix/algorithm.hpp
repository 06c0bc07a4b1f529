#pragma once
// The interface every matrix scheduler implements (Spectra and its baselines).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.hpp"
#include "matrix/schedule.hpp"

namespace flux::matrix {

// The problem in time units: entry (i, j) is the time input i needs to send to output j on one
// link (demand / rate). Schedulers work in these units; the CLI converts bytes <-> time.
struct MatrixProblem {
  Matrix time;       // n x n, >= 0
  int switches = 1;  // s >= 1
  double delta = 0;  // reconfiguration delay, same time unit, >= 0
  // Time one byte takes at line rate (1 / rate) when the demand counts bytes; 0 for normalised
  // demand. Exact decompositions count in these units, so no slot is shorter than one byte.
  double byte_time = 0;
  // Where the caller built `time` from its entries: the positions (i, j) of every entry that may
  // be non-zero, rows ascending and columns ascending within a row; every other entry is +0.
  // Schedulers that work on the support read it from here instead of all n² entries (planning
  // one collective's few pairs on a 1,024-GPU fabric was mostly that read). Unset: not known.
  std::optional<std::vector<std::pair<int, int>>> positions = std::nullopt;
};

struct MatrixRunOptions {
  std::uint64_t seed = 1;  // for randomised algorithms (the paper's baseline)
};

struct MatrixResult {
  MatrixSchedule schedule;  // algorithm, n, switches, delta, slots/circuits, makespan filled in
  int permutations = 0;     // distinct permutations (decomposition size K)
  int splits = 0;           // pieces created by splitting (Spectra's EQUALIZE)
};

inline constexpr int kMaxSwitches = 1 << 16;

// Throws InputError for s outside [1, kMaxSwitches], δ < 0 or non-finite, negative or NaN demand
// entries.
void check_problem(const MatrixProblem& p);
// The same checks in parts, for a caller that reads the demand in a pass of its own: s and δ;
// whether one demand entry is valid (finite and >= 0; branch-free, so that a loop over a row
// vectorises: NaN fails `>= 0`, infinity fails `<= max`); the error for an invalid one.
void check_settings(const MatrixProblem& p);
[[nodiscard]] inline bool valid_demand(double v) {
  return (v >= 0.0) & (v <= std::numeric_limits<double>::max());
}
[[noreturn]] void throw_invalid_demand();

}  // namespace flux::matrix
