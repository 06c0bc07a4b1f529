#pragma once
// `spectra-phase` — Spectra applied per communication phase, a baseline: when the first send of a
// phase becomes ready, the phase's demand matrix (all its sends; symmetrised on duplex) is
// scheduled by Spectra on the σ OCSes with δ = τ and played (matrix_frame) as soon as each OCS is
// free; ready bytes go on whatever circuit is up. A phase is the sends of one collective (the
// `collective` tag), else of one (phase, layer, microbatch, group) tag set, else one send. Bytes
// still queued when every OCS has finished its plan are planned again the same way, so every
// message is delivered. The matrix scheduler can be changed (`phase_algorithm`).
#include "fabric/scheduler.hpp"

namespace flux::fabric_baselines {

[[nodiscard]] fabric::ScheduleRun schedule_spectra_phase(const workload::Workload& w,
                                                         const fabric::Fabric& f,
                                                         const fabric::SchedulerOptions& opt);

}  // namespace flux::fabric_baselines
