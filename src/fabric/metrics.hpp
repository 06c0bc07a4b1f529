#pragma once
// The metrics of one run (defined in docs/models.md), computed from the trace
// of the engine and the circuits that were up — the same accounting for every scheduler.
// Cost: O((tasks + hops + circuits) log).
#include <cstdint>
#include <optional>
#include <vector>

#include "fabric/engine.hpp"
#include "fabric/fabric.hpp"
#include "fabric/nic_buffer.hpp"

namespace flux::fabric {

struct SimMetrics {
  double iteration_time = 0.0;         // s, last task finish
  double compute_critical_path = 0.0;  // s, longest path with free communication
  double exposed_comm = 0.0;           // s, iteration_time − compute_critical_path
  double lower_bound = 0.0;  // s, max(critical path with sends at α + bytes/(σB), GPU volume/(σB))
  Posting posting = Posting::ready;  // when the hosts posted the sends (the buffer depends on it)
  double peak_nic_buffer = 0.0;      // bytes
  double mean_nic_buffer = 0.0;
  double peak_nic_buffer_total = 0.0;
  double peak_waiting_bytes = 0.0;
  double peak_hbm_held = 0.0;          // ready bytes kept in GPU memory until their planned start
  double peak_nic_buffer_eager = 0.0;  // posted when ready, whole payload held until it leaves
  std::int64_t reconfigurations = 0;
  double dark_time = 0.0;            // s, reconfigurations × τ summed over ports
  double circuit_utilization = 0.0;  // delivered bytes / (B × circuit-direction up-time)
  double bytes_injected = 0.0;       // payload of all sends
  double bytes_delivered = 0.0;      // bytes that reached their destination
  std::int64_t events = 0;
  std::int64_t hops = 0;
};

// `buffer_series`, when given, receives the NIC-buffer curves of the same sweep (nic_buffer.hpp),
// so that files showing them need not sweep again. `reconfigurations`, when given, is the
// circuits' count_reconfigurations (the schedule check makes it), not counted again.
[[nodiscard]] SimMetrics measure(const workload::Workload& w, const Fabric& f, const Trace& trace,
                                 const std::vector<TimedCircuit>& circuits, Posting posting,
                                 std::vector<BufferSample>* buffer_series = nullptr,
                                 std::optional<std::int64_t> reconfigurations = std::nullopt);

// Longest path where compute takes its duration and a send α + bytes / send_rate (free when
// send_rate is 0: the compute critical path).
[[nodiscard]] double critical_path_length(const workload::Workload& w, double alpha,
                                          double send_rate);

// The busiest GPU's bytes in one direction over its σ links, σB: no GPU moves more than σB per
// direction.
[[nodiscard]] double volume_bound(const workload::Workload& w, const Fabric& f);

// SimMetrics::lower_bound: max(critical_path_length(w, α, σB), volume_bound(w, f)).
[[nodiscard]] double iteration_lower_bound(const workload::Workload& w, const Fabric& f);

}  // namespace flux::fabric
