#pragma once
// `rotornet` (RotorNet-Direct) and `rotornet-vlb` (RotorLB) — demand-oblivious rotor switches
// (RotorNet, SIGCOMM'17). The matchings of a 1-factorization of the GPUs (simplex: the
// shifts i → i+k) are dealt round-robin to the σ OCSes: in slot s, OCS k holds matching
// (s·σ + k) mod M, so every pair is up at least once in every ⌈M/σ⌉ consecutive slots. A slot lasts
// T = τ / (1 − duty) (or the given length): dark for τ, then up for the rest (the very first slot
// is up from 0 when the initial configuration is free). Ready bytes go on whatever circuit is up
// (CircuitDispatch), split at slot ends; VLB also relays through the current neighbours by
// RotorLB's per-slot rule (rotor_lb.hpp): a neighbour takes at most one slot's worth per final
// destination, counting what it already holds for it.
// Only the circuits that carried a hop are recorded in the schedule (the rotor still cycles the
// others, which move no byte): reconfigurations and utilization describe the circuits in use.
// A slot visits only the circuit directions with bytes queued (rotor_cycle.hpp): cost O(slots ·
// σ + visits · log + hops) time on top of the engine, O(n² + σ · directions booked + used
// circuits + hops) memory.
#include <cstddef>

#include "fabric/scheduler.hpp"

namespace flux::fabric_baselines {

// Slot length from the options (InputError on duty_cycle / slot out of range or τ = 0
// without a slot).
[[nodiscard]] fabric::Time rotor_slot(const fabric::Fabric& f, const fabric::SchedulerOptions& opt);

[[nodiscard]] fabric::ScheduleRun schedule_rotornet(const workload::Workload& w,
                                                    const fabric::Fabric& f,
                                                    const fabric::SchedulerOptions& opt, bool vlb);
// The same with the dispatch's dense direction indexes capped at `dense_index_bytes` (its
// DispatchOptions; tests pass 0 to run the sparse ones on a small fabric).
[[nodiscard]] fabric::ScheduleRun schedule_rotornet(const workload::Workload& w,
                                                    const fabric::Fabric& f,
                                                    const fabric::SchedulerOptions& opt, bool vlb,
                                                    std::size_t dense_index_bytes);

}  // namespace flux::fabric_baselines
