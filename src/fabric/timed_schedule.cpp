#include "fabric/timed_schedule.hpp"

#include <fmt/format.h>

#include <span>
#include <stdexcept>
#include <unordered_map>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace flux::fabric {

namespace {

std::string message_field(std::size_t i) {
  return fmt::format("/messages/{}", i);
}

std::size_t resolve_task(const std::unordered_map<std::int64_t, std::size_t>& index,
                         const workload::Workload& w, const MessagePlacement& m,
                         const std::vector<char>& seen, const std::string& file, std::size_t i) {
  auto it = index.find(m.task);
  if (it == index.end())
    throw InputError(file, message_field(i) + "/task",
                     fmt::format("the id of a task in the workload (no task {})", m.task));
  std::size_t t = it->second;
  if (w.tasks[t].kind != workload::TaskKind::send)
    throw InputError(file, message_field(i) + "/task",
                     fmt::format("a send task (task {} is a compute task)", m.task));
  if (seen[t])
    throw InputError(file, message_field(i) + "/task",
                     fmt::format("one placement per task (task {} is placed twice)", m.task));
  return t;
}

std::vector<Hop> placement_hops(const MessagePlacement& m, const workload::Task& task,
                                const LinkTiming& lt) {
  std::vector<Hop> hops;
  if (m.pieces.empty()) {
    hops.push_back(atomic_hop(m.sw, m.start, task, lt));
    return hops;
  }
  for (const MessagePiece& p : m.pieces)
    hops.push_back({p.sw, p.from < 0 ? task.src : p.from, p.to < 0 ? task.dst : p.to,
                    to_time(p.start), to_time(p.end), p.bytes});
  return hops;
}

bool is_atomic(std::span<const Hop> hops, const workload::Task& task, const LinkTiming& lt) {
  if (hops.size() != 1) return false;
  const Hop& h = hops[0];
  return h.sw != kElectrical && h.from == task.src && h.to == task.dst && h.bytes == task.bytes &&
         h.end == h.start + lt.duration(task.bytes);
}

}  // namespace

Hop atomic_hop(int sw, double start, const workload::Task& task, const LinkTiming& lt) {
  const Time from = to_time(start);
  return {sw, task.src, task.dst, from, from + lt.duration(task.bytes), task.bytes};
}

const char* to_string(Posting p) {
  static constexpr EnumNames kPostings{EnumName{Posting::ready, "ready"},
                                       EnumName{Posting::timetable, "timetable"}};
  return kPostings.name(p);
}

TimedSchedule to_timed(const CircuitSchedule& s, const workload::Workload& w, const Fabric& f,
                       const std::string& file) {
  std::unordered_map<std::int64_t, std::size_t> index;
  for (std::size_t t = 0; t < w.tasks.size(); ++t) index.emplace(w.tasks[t].id, t);
  const LinkTiming lt(f);
  TimedSchedule out;
  out.scheduler = s.scheduler;
  out.posting = Posting::timetable;
  out.hops = HopLists(w.tasks.size());
  std::vector<char> seen(w.tasks.size(), 0);
  for (std::size_t i = 0; i < s.messages.size(); ++i) {
    std::size_t t = resolve_task(index, w, s.messages[i], seen, file, i);
    seen[t] = 1;
    for (const Hop& h : placement_hops(s.messages[i], w.tasks[t], lt)) out.hops.add(t, h);
  }
  for (std::size_t t = 0; t < w.tasks.size(); ++t)
    if (w.tasks[t].kind == workload::TaskKind::send && !seen[t])
      throw InputError(
          file, "/messages",
          fmt::format("a placement for every send task (task {} has none)", w.tasks[t].id));
  out.hops.seal();
  out.circuits = timed_circuits(s.circuits);
  out.iteration_time = to_time(s.iteration_time);
  return out;
}

std::vector<TimedCircuit> timed_circuits(const std::vector<CircuitInterval>& circuits) {
  std::vector<TimedCircuit> out;
  out.reserve(circuits.size());
  for (const CircuitInterval& c : circuits)
    out.push_back({to_time(c.up), to_time(c.down), c.sw, c.a, c.b});
  return out;
}

CircuitSchedule to_circuit_schedule(const TimedSchedule& s, const workload::Workload& w,
                                    const Fabric& f) {
  return to_circuit_schedule(s, s.hops, w, f);
}

CircuitSchedule to_circuit_schedule(const TimedSchedule& s, const HopLists& hops_of,
                                    const workload::Workload& w, const Fabric& f) {
  if (hops_of.size() != w.tasks.size())  // e.g. a replayed schedule, whose hops are in the trace
    throw std::logic_error(
        fmt::format("to_circuit_schedule: hops for {} tasks, the workload has {}", hops_of.size(),
                    w.tasks.size()));
  const LinkTiming lt(f);
  CircuitSchedule out;
  out.scheduler = s.scheduler;
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    const workload::Task& task = w.tasks[t];
    if (task.kind != workload::TaskKind::send) continue;
    MessagePlacement m;
    m.task = task.id;
    const std::span<const Hop> hops = hops_of[t];
    if (is_atomic(hops, task, lt)) {
      m.sw = hops[0].sw;
      m.start = to_seconds(hops[0].start);
    } else {
      for (const Hop& h : hops)
        m.pieces.push_back({h.sw, to_seconds(h.start), to_seconds(h.end), h.bytes,
                            h.from == task.src ? -1 : h.from, h.to == task.dst ? -1 : h.to});
    }
    out.messages.push_back(std::move(m));
  }
  for (const TimedCircuit& c : s.circuits)
    out.circuits.push_back({c.sw, c.a, c.b, to_seconds(c.up), to_seconds(c.down)});
  out.iteration_time = to_seconds(s.iteration_time);
  return out;
}

}  // namespace flux::fabric
