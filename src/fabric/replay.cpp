#include "fabric/replay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "fabric/schedule_check.hpp"
#include "fabric/workload_fit.hpp"

namespace flux {

namespace {

// Plays each send exactly as placed; a hop that leaves the source before the send is ready
// breaks DAG order.
class ReplayTransport final : public Transport {
 public:
  ReplayTransport(const TimedSchedule& s, const Fabric& f, Time tol,
                  std::vector<std::string>& violations)
      : s_(s), f_(f), tol_(tol), violations_(violations) {}

  void on_ready(Engine& e, int task) override {
    const Task& t = e.workload().tasks[static_cast<std::size_t>(task)];
    Time done = e.now();
    for (const Hop& h : s_.hops[static_cast<std::size_t>(task)]) {
      if (h.from == t.src && h.start + tol_ < e.now())
        violations_.push_back(
            fmt::format("{} starts on {} at {} s, before it is ready at {} s (DAG order)",
                        describe_task(e.workload(), task), describe_port(f_, h.from, h.sw, true),
                        to_seconds(h.start), to_seconds(e.now())));
      e.add_hop(task, h);
      done = std::max(done, h.end);
    }
    e.complete_send(task, done);
  }

 private:
  const TimedSchedule& s_;
  const Fabric& f_;
  Time tol_;
  std::vector<std::string>& violations_;
};

}  // namespace

SimResult replay_timed(const Workload& w, const Fabric& f, TimedSchedule s, const SimOptions& opt) {
  SimResult r;
  const Time tol = time_tolerance(s.iteration_time, f);
  if (opt.check_circuits) r.violations = check_schedule(s, w, f, tol);
  ReplayTransport transport(s, f, tol, r.violations);
  Engine engine(w, transport);
  RunStatus status = engine.run(opt.engine);
  if (status != RunStatus::done)
    r.violations.push_back(
        fmt::format("the run stopped with {} tasks unfinished", engine.unfinished_tasks()));
  r.trace = engine.take_trace();
  r.ok = r.violations.empty();
  if (r.ok) r.metrics = measure(w, f, r.trace, s.circuits);
  r.schedule = std::move(s);
  return r;
}

SimResult replay(const Workload& w, const Fabric& f, const CircuitSchedule& s,
                 const SimOptions& opt, const std::string& schedule_file) {
  check_workload_fits(w, f, "workload");
  return replay_timed(w, f, to_timed(s, w, f, schedule_file), opt);
}

}  // namespace flux
