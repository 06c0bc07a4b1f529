#include "fabric/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>

#include "fabric/nic_buffer.hpp"
#include "fabric/schedule_check.hpp"
#include "workload/validate.hpp"

namespace flux::fabric {

namespace {

// Adds to_seconds(min(down, end) - up) of every circuit to `sum`, in order.
double add_up_time(double sum, std::span<const TimedCircuit> circuits, Time end) {
  for (const TimedCircuit& c : circuits) sum += to_seconds(std::min(c.down, end) - c.up);
  return sum;
}

double circuit_capacity(const CircuitFigures& circuits, const workload::Workload& w,
                        const Fabric& f, Time end) {
  if (circuits.none())  // electrical fabric: every GPU's σ links for the whole iteration
    return static_cast<double>(w.gpus) * f.ocs * f.link_rate * to_seconds(end);
  return circuits.up_time(end) * f.link_rate * (f.circuit == CircuitKind::duplex ? 2.0 : 1.0);
}

}  // namespace

double critical_path_length(const workload::Workload& w, double alpha, double send_rate) {
  std::vector<double> finish(w.tasks.size(), 0.0);
  double longest = 0.0;
  const auto visit = [&](int t) {
    const workload::Task& task = w.tasks[static_cast<std::size_t>(t)];
    double start = 0.0;
    for (int p : task.after) start = std::max(start, finish[static_cast<std::size_t>(p)]);
    double d = task.kind == workload::TaskKind::compute
                   ? task.duration
                   : (send_rate > 0 ? alpha + task.bytes / send_rate : 0.0);
    finish[static_cast<std::size_t>(t)] = start + d;
    longest = std::max(longest, start + d);
  };
  // A task's finish is a maximum over its predecessors plus its own time: the same in every
  // topological order. The index order is one while each task's predecessors come before it
  // (generated workloads), which spares Kahn's order and its successor lists; from the first task
  // whose do not, Kahn's order visits every task again (to the same finishes where it had been).
  std::size_t t = 0;
  for (; t < w.tasks.size() && workload::predecessors_before(w.tasks[t], t); ++t)
    visit(static_cast<int>(t));
  if (t < w.tasks.size())
    for (int v : topological_order(w)) visit(v);
  return longest;
}

double volume_bound(const workload::Workload& w, const Fabric& f) {
  std::vector<double> tx(static_cast<std::size_t>(w.gpus), 0.0), rx = tx;
  for (const workload::Task& t : w.tasks)
    if (t.kind == workload::TaskKind::send) {
      tx[static_cast<std::size_t>(t.src)] += t.bytes;
      rx[static_cast<std::size_t>(t.dst)] += t.bytes;
    }
  double most = 0.0;
  for (std::size_t g = 0; g < tx.size(); ++g) most = std::max({most, tx[g], rx[g]});
  return most / (f.ocs * f.link_rate);
}

double iteration_lower_bound(const workload::Workload& w, const Fabric& f) {
  return std::max(critical_path_length(w, f.latency, f.ocs * f.link_rate), volume_bound(w, f));
}

CircuitFigures::CircuitFigures(const std::vector<TimedCircuit>& circuits, const Fabric& f,
                               std::optional<std::int64_t> reconfigurations)
    : circuits_(&circuits),
      none_(circuits.empty()),
      reconfigurations_(reconfigurations ? *reconfigurations
                                         : count_reconfigurations(circuits, f)) {}

void CircuitFigures::detach(Time earliest_end) {
  if (circuits_ == nullptr) throw std::logic_error("CircuitFigures: detached twice");
  const std::vector<TimedCircuit>& circuits = *std::exchange(circuits_, nullptr);
  const auto still_up = std::find_if(circuits.begin(), circuits.end(),
                                     [&](const TimedCircuit& c) { return c.down > earliest_end; });
  earliest_end_ = earliest_end;
  prefix_ = add_up_time(0.0, std::span(circuits.begin(), still_up), earliest_end);
  tail_.assign(still_up, circuits.end());
}

double CircuitFigures::up_time(Time end) const {
  if (circuits_ != nullptr) return add_up_time(0.0, *circuits_, end);
  if (end < earliest_end_)
    throw std::logic_error(
        fmt::format("CircuitFigures: end {} ps before the earliest end {} ps", end, earliest_end_));
  return add_up_time(prefix_, tail_, end);
}

SimMetrics measure(const workload::Workload& w, const Fabric& f, const Trace& trace,
                   const CircuitFigures& circuits, Posting posting,
                   std::vector<BufferSample>* buffer_series) {
  SimMetrics m;
  Time end = 0;
  for (Time t : trace.finish) end = std::max(end, t);
  m.iteration_time = to_seconds(end);
  m.compute_critical_path = critical_path_length(w, 0.0, 0.0);
  m.exposed_comm = m.iteration_time - m.compute_critical_path;
  m.lower_bound = iteration_lower_bound(w, f);
  const BufferStats b = nic_buffer(w, trace, buffer_model(f, posting), end, buffer_series);
  m.posting = posting;
  m.peak_nic_buffer = b.peak;
  m.mean_nic_buffer = b.mean;
  m.peak_nic_buffer_total = b.peak_total;
  m.peak_waiting_bytes = b.peak_waiting;
  m.peak_hbm_held = b.peak_hbm;
  m.peak_nic_buffer_eager = b.peak_eager;
  m.reconfigurations = circuits.reconfigurations();
  m.dark_time = static_cast<double>(m.reconfigurations) * f.reconfig_delay;
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    if (w.tasks[i].kind != workload::TaskKind::send) continue;
    m.bytes_injected += w.tasks[i].bytes;
    for (const Hop& h : trace.hops[i]) {
      if (h.to == w.tasks[i].dst) m.bytes_delivered += h.bytes;
      ++m.hops;
    }
  }
  double capacity = circuit_capacity(circuits, w, f, end);
  double carried = 0.0;
  for (const Hop& h : trace.hops.all()) carried += h.bytes;
  m.circuit_utilization = capacity > 0 ? carried / capacity : 0.0;
  m.events = trace.events;
  return m;
}

}  // namespace flux::fabric
