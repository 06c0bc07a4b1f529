#pragma once
// Atomic message placements and what follows from them: list scheduling of messages in a given
// order on given switches (earliest start after everything earlier on the same ports — the
// semi-active schedule of an order), and the flux.circuit-schedule/1 with its circuit intervals.
// Model and format: docs/models.md, docs/formats.md. Complexity O(V + E + M log M).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cosched/instance.hpp"
#include "fabric/fabric.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::cosched {

struct Placement {
  int sw = -1;
  double start = 0.0;
};

// Places messages in `order` (message indices, a linear extension of the DAG restricted to
// messages; it may stop early — a prefix-closed subset) on `switch_of[m]`, each at its earliest
// start; unlisted messages stay unplaced (sw = -1). Compute tasks run as soon as ready.
// Returns nullopt when `order` contradicts the DAG or lists a message twice. Given the start order
// and switches of any feasible schedule, the result is feasible and no later for every task (a left
// shift).
[[nodiscard]] std::optional<std::vector<Placement>> schedule_in_order(
    const CoschedInstance& inst, const std::vector<int>& switch_of, const std::vector<int>& order);

// The list scheduler behind `schedule_in_order`, reusable: it keeps its buffers between runs
// (the local search evaluates thousands of orders) and records every task's start, the
// iteration time, and for each message the message that delayed it on a port (-1 when its
// predecessors or the port's first set-up decide its start).
class ListScheduler {
 public:
  explicit ListScheduler(const CoschedInstance& inst);
  // Same contract as `schedule_in_order`; false when `order` contradicts the DAG or repeats a
  // message.
  [[nodiscard]] bool run(const std::vector<int>& switch_of, const std::vector<int>& order);
  [[nodiscard]] const std::vector<double>& task_start() const { return start_; }
  [[nodiscard]] const std::vector<int>& blocker() const { return blocker_; }
  [[nodiscard]] double iteration_time() const { return end_; }
  // Placements of the last successful run (sw = -1 for unlisted messages).
  [[nodiscard]] std::vector<Placement> placements(const std::vector<int>& switch_of) const;

 private:
  void finish(int v, double end);
  void prefetch_message(const std::vector<int>& order, std::size_t k) const;
  const CoschedInstance& inst_;
  std::vector<int> missing_, compute_queue_, blocker_;
  std::vector<double> ready_, start_;
  std::vector<char> placed_;
  double end_ = 0.0;
};

// Message indices sorted by start time (ties: topological position), for `schedule_in_order`.
[[nodiscard]] std::vector<int> start_order(const CoschedInstance& inst,
                                           const std::vector<Placement>& placements);
// The same order for messages that start with their tasks (`task_start` indexed by task).
[[nodiscard]] std::vector<int> start_order(const CoschedInstance& inst,
                                           const std::vector<double>& task_start);

// Iteration time of the placements (last task end).
[[nodiscard]] double iteration_time(const CoschedInstance& inst,
                                    const std::vector<Placement>& placements);

// The schedule file: one atomic entry per send, and the circuit intervals the placements imply.
// A port switches as late as possible (dark during the τ before its next circuit's first use);
// a circuit is up while both of its ports point at each other.
[[nodiscard]] fabric::CircuitSchedule make_circuit_schedule(
    const CoschedInstance& inst, const std::vector<Placement>& placements,
    const std::string& scheduler);

// The simulator's form of the same schedule (to_timed of `make_circuit_schedule`), built without
// the file form's record per message or a lookup of every task id: at 1,024 GPUs those take GBs.
// Every message must be placed (std::logic_error otherwise).
[[nodiscard]] fabric::TimedSchedule make_timed_schedule(const CoschedInstance& inst,
                                                        const std::vector<Placement>& placements,
                                                        const std::string& scheduler);
// The same in two steps, so that a caller can free the instance before the hops are filed (the
// peak of flux-greedy at 1,024 GPUs): everything but the hops, then the hops, which need only
// the workload (message m is the workload's m-th send, as in every instance).
[[nodiscard]] fabric::TimedSchedule timed_schedule_without_hops(
    const CoschedInstance& inst, const std::vector<Placement>& placements,
    const std::string& scheduler);
void add_hops(fabric::TimedSchedule& schedule, const workload::Workload& workload,
              const fabric::Fabric& fabric, const std::vector<Placement>& placements);

// Port reconfigurations the placements need: the simulator's count (fabric/schedule_check) on
// the circuits of `make_circuit_schedule`.
[[nodiscard]] std::int64_t count_reconfigurations(const CoschedInstance& inst,
                                                  const std::vector<Placement>& placements);

}  // namespace flux::cosched
