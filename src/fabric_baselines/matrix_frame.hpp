#pragma once
// Circuit windows from a matrix schedule: the bridge from the matrix
// schedulers (BvN, Spectra, … on one demand matrix) to the fabric. Per OCS, the slots are played
// in start order, τ before each; only the pairs that have demand get a circuit. On a duplex fabric
// a slot's permutation is split into at most three matchings (its cycles are edge-coloured: two
// colours alternate along each cycle or path, an odd cycle's last edge takes a third), played one
// after the other for the slot's full duration, so every demanded direction gets its time.
// O(slots · n).
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "fabric/fabric.hpp"
#include "fabric_baselines/circuit_dispatch.hpp"
#include "fabric_baselines/round_robin.hpp"
#include "fabric_baselines/traffic.hpp"
#include "matrix/schedule.hpp"

namespace flux::fabric_baselines {

struct Frame {
  std::vector<std::vector<Window>> windows;  // [sw] in time order, relative to the frame start
  fabric::Time length = 0;                   // latest window end
};

// The positive entries of `demand` (bytes or seconds) select the circuits worth setting up.
[[nodiscard]] Frame frame_from_schedule(const matrix::MatrixSchedule& s, const Matrix& demand,
                                        const fabric::Fabric& f);

// Same windows with their durations scaled per OCS so that each OCS's frame lasts `length`
// (periodic mode). InputError on "frame" when `length` cannot hold an OCS's reconfigurations.
[[nodiscard]] Frame stretch_frame(const Frame& frame, fabric::Time length, const fabric::Fabric& f);

// Schedules `demand` (bytes; symmetrised first on a duplex fabric) with the named matrix scheduler
// on σ switches with δ = τ. InputError (field `option`) if the name is not a matrix scheduler.
[[nodiscard]] Frame plan_frame(const Matrix& demand, const fabric::Fabric& f,
                               const std::string& algorithm, const std::string& option);
// plan_frame of demands given by their entries (traffic.hpp) on f.gpus GPUs, one after another.
// A phase names a few pairs of a large fabric: the planner keeps one n x n matrix, zero outside
// the demand being planned, and tells the matrix scheduler where the entries are, so a plan costs
// O(n + entries) on top of the scheduler's own work instead of clearing and reading n² entries
// (most of spectra-phase's run at 1,024 GPUs). The frames are the same as plan_frame's.
class EntryPlanner {
 public:
  EntryPlanner(const fabric::Fabric& f, std::string algorithm, std::string option);
  [[nodiscard]] Frame plan(const DemandEntries& demand);

 private:
  const fabric::Fabric& f_;
  std::string algorithm_, option_;
  std::vector<double> matrix_;  // f.gpus x f.gpus, row-major; zero between plans
};

}  // namespace flux::fabric_baselines
