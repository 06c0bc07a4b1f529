#include "fabric/replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "fabric/schedule_check.hpp"
#include "fabric/workload_fit.hpp"

namespace flux::fabric {

namespace {

// Plays each send exactly as placed; a hop that leaves the source before the send is ready
// breaks DAG order.
class ReplayTransport final : public Transport {
 public:
  ReplayTransport(const TimedSchedule& s, const Fabric& f, Time tol,
                  std::vector<std::string>& violations)
      : s_(s), f_(f), tol_(tol), alpha_(to_time(f.latency)), violations_(violations) {}

  void on_ready(Engine& e, int task) override {
    const workload::Task& t = e.workload().tasks[static_cast<std::size_t>(task)];
    // Electrical hops (the ideal fabric) deliver α after their last byte left; a send without
    // hops (zero bytes on the electrical fabric) arrives α after it is ready.
    const auto& hops = s_.hops[static_cast<std::size_t>(task)];
    Time done = hops.empty() ? e.now() + alpha_ : e.now();
    for (const Hop& h : hops) {
      if (h.from == t.src && h.start + tol_ < e.now())
        violations_.push_back(
            fmt::format("{} starts on {} at {} s, before it is ready at {} s (DAG order)",
                        describe_task(e.workload(), task), describe_port(f_, h.from, h.sw, true),
                        to_seconds(h.start), to_seconds(e.now())));
      e.add_hop(task, h);
      done = std::max(done, h.end + (h.sw == kElectrical ? alpha_ : 0));
    }
    e.complete_send(task, done);
  }

 private:
  const TimedSchedule& s_;
  const Fabric& f_;
  Time tol_;
  Time alpha_;
  std::vector<std::string>& violations_;
};

// The iteration time a schedule reports must be the one its replay reaches (the fabric model: the
// end of the last task), or every figure derived from the file would rest on a wrong number.
void check_iteration_time(const Trace& trace, Time reported, const Fabric& f,
                          std::vector<std::string>& violations) {
  Time end = 0;
  for (Time t : trace.finish) end = std::max(end, t);
  if (std::abs(end - reported) > time_tolerance(std::max(end, reported), f))
    violations.push_back(fmt::format(
        "the schedule reports an iteration time of {} s, its replay ends the last task at {} s",
        to_seconds(reported), to_seconds(end)));
}

// Runs the DAG with every hop as placed into r.trace (without hop lists) and r.violations. The
// engine's queue and successor lists are freed on return, before the metrics need memory.
RunStatus play(const workload::Workload& w, const Fabric& f, const TimedSchedule& s, Time tol,
               const EngineOptions& opt, SimResult& r) {
  ReplayTransport transport(s, f, tol, r.violations);
  Engine engine(w, transport, TraceParts::times);
  const RunStatus status = engine.run(opt);
  if (status != RunStatus::done)
    r.violations.push_back(
        fmt::format("the run stopped with {} tasks unfinished", engine.unfinished_tasks()));
  r.trace = engine.take_trace();
  return status;
}

}  // namespace

SimResult replay_timed(const workload::Workload& w, const Fabric& f, TimedSchedule s,
                       const SimOptions& opt) {
  SimResult r;
  if (s.hops.size() != w.tasks.size()) {  // a scheduler bug; the file path cannot produce it
    r.violations.push_back(fmt::format("the schedule has hops for {} tasks, the workload has {}",
                                       s.hops.size(), w.tasks.size()));
    r.schedule = std::move(s);
    return r;
  }
  const Time tol = time_tolerance(s.iteration_time, f);
  std::optional<std::int64_t> reconfigurations;  // counted by the check when it runs
  if (opt.check_circuits) r.violations = check_schedule(s, w, f, tol, &reconfigurations.emplace());
  CircuitFigures circuits(s.circuits, f, reconfigurations);
  if (!opt.keep_circuits) {
    // The metrics come only from a run that ends within tol of the reported iteration time.
    circuits.detach(s.iteration_time - tol);
    s.circuits = std::vector<TimedCircuit>();
  }
  const RunStatus status = play(w, f, s, tol, opt.engine, r);
  // A finished run played every hop of the schedule: the trace takes the schedule's lists
  // rather than a copy of the largest structure of the run.
  if (status == RunStatus::done) {
    r.trace.hops = std::move(s.hops);
    check_iteration_time(r.trace, s.iteration_time, f, r.violations);
  } else {
    r.trace.hops = HopLists(w.tasks.size());  // the schedule keeps its hops for the diagnosis
  }
  r.ok = r.violations.empty();
  if (r.ok) {
    if (opt.keep_buffer_series) r.buffer_series.emplace();
    r.metrics =
        measure(w, f, r.trace, circuits, s.posting, r.buffer_series ? &*r.buffer_series : nullptr);
  }
  r.schedule = std::move(s);
  return r;
}

SimResult replay(const workload::Workload& w, const Fabric& f, const CircuitSchedule& s,
                 const SimOptions& opt, const std::string& schedule_file) {
  check_workload_fits(w, f, "workload");
  return replay_timed(w, f, to_timed(s, w, f, schedule_file), opt);
}

}  // namespace flux::fabric
