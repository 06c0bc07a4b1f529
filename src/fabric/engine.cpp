#include "fabric/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "core/limits.hpp"
#include "core/prefetch.hpp"
#include "core/units.hpp"
#include "fabric/run_budget.hpp"

namespace flux::fabric {

Engine::Engine(const workload::Workload& w, Transport& transport, TraceParts parts)
    : w_(w),
      transport_(transport),
      record_hops_(parts != TraceParts::times),
      record_times_(parts != TraceParts::hops) {
  const std::size_t n = w.tasks.size();
  if (record_times_) {
    trace_.ready.assign(n, -1);
    trace_.start.assign(n, -1);
    trace_.finish.assign(n, -1);
  }
  if (record_hops_) trace_.hops = HopLists(n);
  succ_ = successors(w);
  pending_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) pending_[i] = static_cast<int>(w.tasks[i].after.size());
  stream_free_.assign(static_cast<std::size_t>(std::max(w.gpus, 0)), 0);
  unfinished_ = static_cast<int>(n);
}

RunStatus Engine::run(const EngineOptions& opt) {
  // A finished engine has freed its run state (below) and cannot run again.
  if (pending_.size() != w_.tasks.size())
    throw std::logic_error("Engine::run: this engine's run is over");
  const RunStatus status = run_events(opt);
  if (status == RunStatus::done) {
    // The run's own state goes before the hops are filed: filing holds the hop log and the
    // filed array at once, the peak of a run with tens of millions of hops.
    succ_ = {};
    pending_ = {};
    queue_ = {};
  }
  trace_.hops.seal();
  return status;
}

RunStatus Engine::run_events(const EngineOptions& opt) {
  const auto tasks = static_cast<double>(w_.tasks.size());
  ProgressStage stage(opt.progress ? *opt.progress : no_progress(), opt.stage, tasks);
  transport_.begin(*this);
  for (std::size_t i = 0; i < w_.tasks.size(); ++i)
    if (pending_[i] == 0) make_ready(static_cast<int>(i));
  while (!queue_.empty() && unfinished_ > 0) {
    if (trace_.events >= opt.max_events) return RunStatus::event_limit;
    // Every 2^14 events: cheap next to the events themselves, and often enough for a live line.
    if (opt.progress != nullptr && (trace_.events & 0x3FFF) == 0)
      stage.update(tasks - unfinished_, fmt::format("simulated {}", format_time(to_seconds(now_))));
    Event e = queue_.pop();
    ++trace_.events;
    now_ = e.time;
    if (e.kind == kTaskDone) {
      task_done(static_cast<int>(e.payload));
    } else {
      transport_.on_timer(*this, e.payload);
    }
  }
  if (unfinished_ > 0) return RunStatus::stalled;
  stage.update(
      tasks, fmt::format("simulated {}, {} events", format_time(to_seconds(now_)), trace_.events));
  return RunStatus::done;
}

void Engine::make_ready(int task) {
  const workload::Task& t = w_.tasks[static_cast<std::size_t>(task)];
  if (record_times_) trace_.ready[task] = now_;
  if (t.kind == workload::TaskKind::compute) {
    Time& free = stream_free_[static_cast<std::size_t>(t.gpu)];
    Time start = std::max(now_, free);
    free = start + to_time(t.duration);
    if (record_times_) trace_.start[task] = start;
    queue_.push(free, kTaskDone, task);
  } else {
    transport_.on_ready(*this, task);
  }
}

void Engine::task_done(int task) {
  if (record_times_) trace_.finish[task] = now_;
  --unfinished_;
  const auto t = static_cast<std::size_t>(task);
  const std::size_t first = succ_.offset[t], last = succ_.offset[t + 1];
  // The successors lie anywhere among millions of tasks: ask for all their counts and records
  // before touching any, so that their cache misses overlap.
  for (std::size_t k = first; k < last; ++k) {
    const auto s = static_cast<std::size_t>(succ_.target[k]);
    prefetch(&pending_[s]);
    prefetch_object(&w_.tasks[s]);
  }
  for (std::size_t k = first; k < last; ++k) {
    int s = succ_.target[k];
    if (--pending_[s] == 0) make_ready(s);
  }
}

void Engine::add_hop(int task, const Hop& hop) {
  if (record_times_) {
    Time& start = trace_.start[task];
    start = start < 0 ? hop.start : std::min(start, hop.start);  // sends start at their first hop
  }
  if (record_hops_) trace_.hops.add(static_cast<std::size_t>(task), hop);
  if (++hops_ > kMaxHops) throw hops_over_budget(hops_);
}

void Engine::complete_send(int task, Time at) {
  assert(at >= now_);
  queue_.push(at, kTaskDone, task);
}

void Engine::set_timer(Time at, std::int64_t tag) {
  assert(at >= now_);
  queue_.push(at, kTimer, tag);
}

ScheduleRun run_scheduler(Engine& e, const std::string& name, Progress& progress) {
  if (e.run({.progress = &progress}) != RunStatus::done)
    throw std::logic_error(
        fmt::format("scheduler {} left {} tasks unfinished", name, e.unfinished_tasks()));
  ScheduleRun run;
  Trace trace = e.take_trace();
  run.events = trace.events;
  run.schedule.scheduler = name;
  run.schedule.posting = Posting::ready;  // it decided online: the hosts could not know when
  run.schedule.hops = std::move(trace.hops);
  // Events come in time order and the run stops at its last finish: the latest of them all.
  run.schedule.iteration_time = e.now();
  return run;
}

}  // namespace flux::fabric
