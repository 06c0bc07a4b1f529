#pragma once
// What each GPU's NIC must hold: data the host has handed to it that cannot leave yet.
// * A send is posted to its source NIC when it becomes ready (Posting::ready) or at its planned
//   start, the start of its first hop (Posting::timetable); until then a ready send's bytes stay
//   in GPU memory ("HBM-held").
// * Posted bytes of a message that has no hop leaving its source right now (no circuit yet, or
//   between two pieces of a split message) are held in full ("waiting").
// * While a message is on the wire the NIC streams it from GPU memory and holds only its staging
//   window: min(remaining bytes of the message, W), W = link_rate × nic_window.
// * Bytes relayed through an intermediate GPU arrive there linearly, count in full until they
//   are forwarded and leave linearly; from the end of the hop that brought them to the start of
//   the hop that forwards them they are waiting too.
// * The eager metric, kept for comparison with earlier results: every send posted when ready, its
//   whole payload held until it leaves linearly over each hop (relays as above).
// Every curve is piecewise linear, so one sweep over the sorted breakpoints gives exact peaks and
// time integrals. Cost: O(H log H) for H hops.
#include <vector>

#include "fabric/engine.hpp"
#include "fabric/fabric.hpp"

namespace flux::fabric {

struct BufferModel {
  Posting posting = Posting::ready;
  double window = 0.0;  // W, bytes
  // Not the model: at most how many breakpoint records (24 bytes each) the sweep holds at once
  // (it holds one per two tasks, and at least 2^18, below this). More are swept in time
  // windows, one pass over the tasks each; the results are the same. 2^24 (0.4 GB): on the
  // 1,024-GPU iteration a window is the metrics' peak next to the workload and the hops, and this
  // keeps `ideal` under 4 GiB for a few more passes over the tasks.
  std::size_t max_records = std::size_t{1} << 24;
  // Not the model either: a window's pass skips every block of this many consecutive tasks whose
  // records (counted by the first pass) all fall outside the window, then each task of the
  // other blocks whose records do. Tasks near in the DAG's order are near in time, so a pass
  // reads mostly its own window's tasks.
  std::size_t tasks_per_block = 64;
};
[[nodiscard]] BufferModel buffer_model(const Fabric& f, Posting posting);

struct BufferStats {
  double peak = 0.0;          // max over GPUs and time (peak_nic_buffer)
  double mean = 0.0;          // time average over [0, T], averaged over GPUs
  double peak_total = 0.0;    // max over time of the sum over GPUs
  double peak_waiting = 0.0;  // max over GPUs and time of the waiting part alone
  double peak_hbm = 0.0;      // max over GPUs and time of ready bytes not yet posted
  double peak_eager = 0.0;    // peak of the eager metric
};

struct BufferSample {
  double time = 0.0;  // s; a window's edge may fall between two picoseconds
  int gpu = 0;
  double bytes = 0.0;    // in the NIC right after `time`
  double waiting = 0.0;  // of which on no wire
  double hbm = 0.0;      // ready but not yet posted: held in GPU memory
};

// `series`, when given, receives one sample per (breakpoint, GPU that changed there), in time
// order, and where a GPU's curves jump, first a sample of their values just before: each GPU's
// curves are linear between its samples.
[[nodiscard]] BufferStats nic_buffer(const workload::Workload& w, const Trace& trace,
                                     const BufferModel& model, Time iteration_time,
                                     std::vector<BufferSample>* series = nullptr);

}  // namespace flux::fabric
