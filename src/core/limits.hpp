#pragma once
// The ranges every reader enforces, derived in one place from the simulator's clock: time is an
// int64 count of picoseconds (about 9.22e6 s, 106 days), byte counts are doubles. A value beyond
// these would overflow the clock or lose whole bytes, so it is refused when the file is read
// rather than producing a wrong result later. docs/formats.md lists them.
#include <cstddef>
#include <cstdint>

namespace flux {

// Largest representable clock value in seconds: INT64_MAX picoseconds.
inline constexpr double kClockRangeSeconds = static_cast<double>(INT64_MAX) / 1e12;
// Largest time (duration, latency, delay, window) a file may hold: a round number under the clock
// range, so a single value always converts to picoseconds exactly.
inline constexpr double kMaxSeconds = 9.0e6;
// Largest byte count: 2^53, the last integer a double holds exactly.
inline constexpr double kMaxBytes = 9007199254740992.0;
// Smallest link rate (bytes/s): one byte must cross a link within kMaxSeconds.
inline constexpr double kMinLinkRate = 1.0 / kMaxSeconds;
// Largest workload a generator or importer builds: tasks are ~100 bytes each in memory and ~150 in
// a file, so this bounds memory to a few GB.
inline constexpr double kMaxGeneratedTasks = 5e7;

// Memory a scheduler may plan to allocate for its per-pair (GPUs x GPUs) state.
inline constexpr double kMaxSchedulerBytes = 8e9;
// Pair-slot steps a periodic scheduler may plan for one matching cycle (GPUs x (GPUs - 1)).
inline constexpr double kMaxCycleSteps = 1e9;
// Output files of one simulation (circuit records in CSV, schedule and timeline), also bounding
// the replay's time and memory.
inline constexpr double kMaxOutputBytes = 5e8;
// Circuit records a schedule may hold in memory (32 bytes each) when no output file lists them.
inline constexpr double kMaxCircuitRecordBytes = 2e9;
// Hops (pieces of messages on circuits, 40 bytes each) one simulation may record: 4 GB.
inline constexpr double kMaxHops = 1e8;

}  // namespace flux
