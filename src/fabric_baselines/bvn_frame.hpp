#pragma once
// `bvn` — BvN/TMS on the iteration's aggregate traffic matrix: the
// symmetrised (duplex) aggregate TM is decomposed and spread over the σ OCSes by the matrix
// scheduler `bvn` (exact Birkhoff–von Neumann, LPT, δ = τ), turned into circuit windows
// (matrix_frame) and repeated until every message is delivered; ready bytes go on whatever
// circuit is up. One-shot mode: the frame lasts what the decomposition needs (Σ durations + τs).
// Periodic mode (`frame` > 0): the frame is stretched or squeezed to that length per OCS.
// Timing-blind by design: circuits are up for pairs whose data is not ready.
// Every circuit of every window is recorded, unless that list passes the records' cap
// (max_circuit_records): the run is then played again, recording only the circuits that carried
// a hop (TimedSchedule::used_circuits_only).
#include "fabric/scheduler.hpp"

namespace flux::fabric_baselines {

[[nodiscard]] fabric::ScheduleRun schedule_bvn(const workload::Workload& w, const fabric::Fabric& f,
                                               const fabric::SchedulerOptions& opt);

}  // namespace flux::fabric_baselines
