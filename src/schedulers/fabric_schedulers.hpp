#pragma once
// The registry entries of the fabric's periodic and aggregate baselines
// (fabric_baselines/rotornet.hpp, bvn_frame.hpp, spectra_phase.hpp, static_topology.hpp,
// ideal.hpp): their options tables and the conversion of checked values to the fabric's
// SchedulerOptions.
#include "schedulers/registry.hpp"

namespace flux::schedulers {

[[nodiscard]] WorkloadScheduler static_scheduler();
[[nodiscard]] WorkloadScheduler rotornet_scheduler(bool vlb);
[[nodiscard]] WorkloadScheduler bvn_scheduler();
[[nodiscard]] WorkloadScheduler bvn_periodic_scheduler();
[[nodiscard]] WorkloadScheduler spectra_phase_scheduler();
[[nodiscard]] WorkloadScheduler ideal_scheduler();

}  // namespace flux::schedulers
