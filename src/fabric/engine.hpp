#pragma once
// Event-driven executor of one training-iteration DAG on the fabric model of docs/models.md.
// Each GPU has a compute stream (compute tasks start when ready and the stream is free); sends
// are handed, when ready, to a Transport — the scheduler or the replay of a given schedule —
// which records the hops that carry them and says when each send completes. Events are ordered by
// (time, sequence), time is integer picoseconds, so runs are deterministic.
// Cost: O((tasks + edges + timers) log queue) plus whatever the transport does.
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "fabric/event_queue.hpp"
#include "fabric/timed_schedule.hpp"
#include "fabric/workload_fit.hpp"
#include "workload/workload.hpp"

namespace flux::fabric {

// The times are empty, and the hop lists sized to no task, where the run's TraceParts leave them.
struct Trace {
  std::vector<Time> ready;   // [task] when all predecessors finished (-1 = never)
  std::vector<Time> start;   // [task] compute: start on its stream; send: first hop start
  std::vector<Time> finish;  // [task] -1 = never
  HopLists hops;             // [task] the hops that carried a send
  std::int64_t events = 0;
};

class Engine;

class Transport {
 public:
  virtual ~Transport() = default;
  virtual void begin(Engine&) {}
  // Send `task` became ready at e.now(): record its hops and call complete_send, now or later.
  virtual void on_ready(Engine& e, int task) = 0;
  virtual void on_timer(Engine&, std::int64_t /*tag*/) {}
};

enum class RunStatus { done, stalled, event_limit };

// What a run's trace keeps. A replay plays hops it already holds: the times only. A scheduler's
// run gives only its hops and the iteration end (now() when it is done): three times per task
// (0.44 GB on the 18.5 M tasks of the 1,024-GPU iteration) would only add to its peak.
enum class TraceParts { all, times, hops };

struct EngineOptions {
  std::int64_t max_events = std::int64_t{1} << 36;  // guard against a transport that never ends
  // Reports a stage named `stage`: tasks finished out of all, and the simulated time reached.
  Progress* progress = nullptr;
  const char* stage = "simulate";
};

class Engine {
 public:
  // Preconditions (check_workload_fits): indices in range, acyclic.
  Engine(const workload::Workload& w, Transport& transport, TraceParts parts = TraceParts::all);

  // Ends with the trace's hops sealed, whatever the status.
  [[nodiscard]] RunStatus run(const EngineOptions& opt = {});

  [[nodiscard]] Time now() const { return now_; }
  [[nodiscard]] const workload::Workload& workload() const { return w_; }
  [[nodiscard]] const Trace& trace() const { return trace_; }
  [[nodiscard]] Trace take_trace() { return std::move(trace_); }
  [[nodiscard]] int unfinished_tasks() const { return unfinished_; }

  void add_hop(int task, const Hop& hop);
  void complete_send(int task, Time at);  // at >= now()
  void set_timer(Time at, std::int64_t tag);

 private:
  enum Kind { kTaskDone = 0, kTimer = 1 };
  [[nodiscard]] RunStatus run_events(const EngineOptions& opt);
  void make_ready(int task);
  void task_done(int task);

  const workload::Workload& w_;
  Transport& transport_;
  EventQueue queue_;
  Trace trace_;
  std::size_t hops_ = 0;  // recorded so far, bounded by kMaxHops
  bool record_hops_ = true;
  bool record_times_ = true;
  workload::Successors succ_;
  std::vector<int> pending_;       // unfinished predecessors per task
  std::vector<Time> stream_free_;  // per GPU
  Time now_ = 0;
  int unfinished_ = 0;
};

// Runs a scheduler's engine to the end and collects its hops, iteration time and event count
// (no circuits). A run that cannot finish is a bug of the scheduler: std::logic_error.
[[nodiscard]] ScheduleRun run_scheduler(Engine& e, const std::string& name,
                                        Progress& progress = no_progress());

}  // namespace flux::fabric
