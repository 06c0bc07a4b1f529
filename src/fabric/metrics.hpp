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

// The circuits' part of the metrics (reconfigurations, up-time). It reads the circuit records
// when the metrics are computed, unless detach() made it keep what it needs, so that a replay
// whose files do not list the records can drop them before playing the DAG (0.69 GiB on the
// 1,024-GPU rotornet-vlb iteration). The up-time is summed over every record in order,
// min(down, end) - up; for any end of at least `earliest_end`, the records that came down by
// then add the same whatever the end, so a detached one keeps their sum up to the first record
// that did not, and the records from it on (the few still up at the end of a list in time
// order; the list's tail at worst).
class CircuitFigures {
 public:
  // `reconfigurations`: the circuits' count_reconfigurations when known (the schedule check
  // makes it), counted here otherwise. `circuits` must outlive the figures until detach().
  CircuitFigures(const std::vector<TimedCircuit>& circuits, const Fabric& f,
                 std::optional<std::int64_t> reconfigurations = std::nullopt);

  // Keeps what up_time(end) needs for every end >= earliest_end: the records may go.
  void detach(Time earliest_end);

  [[nodiscard]] bool none() const { return none_; }  // no circuits (the electrical fabric)
  [[nodiscard]] std::int64_t reconfigurations() const { return reconfigurations_; }
  // Seconds of circuit up-time before `end` (>= earliest_end once detached), over the circuits.
  [[nodiscard]] double up_time(Time end) const;

 private:
  const std::vector<TimedCircuit>* circuits_;  // nullptr once detached
  bool none_;
  std::int64_t reconfigurations_;
  Time earliest_end_ = 0;
  double prefix_ = 0.0;             // detached: the sum over the records before tail_
  std::vector<TimedCircuit> tail_;  // detached: from the first record still up at earliest_end_
};

// `buffer_series`, when given, receives the NIC-buffer curves of the same sweep (nic_buffer.hpp),
// so that files showing them need not sweep again.
[[nodiscard]] SimMetrics measure(const workload::Workload& w, const Fabric& f, const Trace& trace,
                                 const CircuitFigures& circuits, Posting posting,
                                 std::vector<BufferSample>* buffer_series = nullptr);

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
