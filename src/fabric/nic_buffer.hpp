#pragma once
// NIC buffer accounting with eager injection (DESIGN §1.3, reference/flux.md §3.8): a send's whole
// payload enters its source NIC when the send becomes ready and leaves linearly over each hop that
// carries it; bytes relayed through an intermediate GPU arrive there linearly and count until
// forwarded. "Waiting" bytes are the ready bytes not on the wire (a relay's bytes wait from the end
// of the hop that brought them). Buffers are piecewise linear, so one sweep over the sorted
// breakpoints gives exact peaks and the time integral. Cost: O(H log H) for H hops.
#include <vector>

#include "fabric/engine.hpp"

namespace flux {

struct BufferStats {
  double peak = 0.0;          // max over GPUs and time (peak_nic_buffer)
  double mean = 0.0;          // time average over [0, T], averaged over GPUs
  double peak_total = 0.0;    // max over time of the sum over GPUs
  double peak_waiting = 0.0;  // max over GPUs and time of ready bytes not on the wire
};

struct BufferSample {
  Time time = 0;
  int gpu = 0;
  double bytes = 0.0;    // buffered at this GPU right after `time`
  double waiting = 0.0;  // of which not on the wire
};

// `series`, when given, receives one sample per (breakpoint, GPU that changed there), in time
// order.
[[nodiscard]] BufferStats nic_buffer(const Workload& w, const Trace& trace, Time iteration_time,
                                     std::vector<BufferSample>* series = nullptr);

}  // namespace flux
