#include "fabric/sim_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "fabric/fabric_io.hpp"
#include "fabric/json_stream.hpp"
#include "fabric/nic_buffer.hpp"
#include "report/csv.hpp"

namespace flux::fabric {

namespace {

using Json = nlohmann::ordered_json;

Json options_json(const RunContext& ctx) {
  return ctx.replayed ? Json::object() : ctx.options;
}

Json scenario_json(const workload::Workload& w, const Fabric& f, const RunContext& ctx) {
  std::size_t sends = 0;
  for (const workload::Task& t : w.tasks) sends += t.kind == workload::TaskKind::send;
  return Json{{"workload", ctx.workload_file},  {"gpus", w.gpus},
              {"tasks", w.tasks.size()},        {"sends", sends},
              {"fabric_file", ctx.fabric_file}, {"fabric", Json::parse(fabric_to_json(f))}};
}

// Chrome trace times are microseconds.
double us(Time t) {
  return static_cast<double>(t) / 1e6;
}

// `cat` lets a trace viewer filter by kind: compute, reconfigure, circuit, transfer. The caller
// adds the "args" object and closes the event.
JsonObject slice(JsonArrayWriter& events, std::string_view name, const char* cat, int pid, int tid,
                 Time start, Time end) {
  JsonObject e(events.next());
  e.field("name", name)
      .field("cat", cat)
      .field("ph", "X")
      .field("pid", pid)
      .field("tid", tid)
      .field("ts", us(start))
      .field("dur", us(end - start));
  return e;
}

void track_name(JsonArrayWriter& events, const char* what, int pid, int tid,
                std::string_view name) {
  JsonObject e(events.next());
  e.field("name", what).field("ph", "M").field("pid", pid).field("tid", tid);
  e.object("args").field("name", name).close();
  e.close();
}

// The name of a task's slice: its own, or its id.
std::string_view task_label(const workload::Task& task, std::string& scratch) {
  if (!task.name.empty()) return task.name;
  scratch = fmt::format("task {}", task.id);
  return scratch;
}

void transfer_slice(JsonArrayWriter& events, const workload::Workload& w, int pid, int tid,
                    const Hop& h, std::size_t task, std::string& scratch) {
  JsonObject e =
      slice(events, task_label(w.tasks[task], scratch), "transfer", pid, tid, h.start, h.end);
  e.object("args")
      .field("task", w.tasks[task].id)
      .field("to", h.to)
      .field("bytes", h.bytes)
      .close();
  e.close();
}

struct ElectricalHop {
  const Hop* hop;
  std::size_t task;
};

// The ideal fabric's transfers, on process 2: a GPU's NIC carries its flows together, each at its
// fair rate, so they overlap in time. Each runs on one of the GPU's lanes (track `lane · gpus +
// gpu`), the lowest free when it starts, so that slices on a track never overlap.
void electrical_tracks(JsonArrayWriter& events, const workload::Workload& w, const Fabric& f,
                       std::vector<ElectricalHop>& hops, std::string& scratch) {
  if (hops.empty()) return;
  const int pid = 2;
  track_name(events, "process_name", pid, 0, "electrical NIC (per GPU, a lane per flow at once)");
  std::stable_sort(hops.begin(), hops.end(), [](const ElectricalHop& a, const ElectricalHop& b) {
    return std::pair{a.hop->from, a.hop->start} < std::pair{b.hop->from, b.hop->start};
  });
  std::vector<Time> lane_free;  // the current GPU's lanes: when each is free again
  for (std::size_t k = 0; k < hops.size(); ++k) {
    const Hop& h = *hops[k].hop;
    if (k == 0 || hops[k - 1].hop->from != h.from) lane_free.clear();
    std::size_t lane = 0;
    while (lane < lane_free.size() && lane_free[lane] > h.start) ++lane;
    if (lane == lane_free.size()) {
      lane_free.push_back(0);
      track_name(events, "thread_name", pid, static_cast<int>(lane) * f.gpus + h.from,
                 lane == 0 ? fmt::format("gpu {} nic", h.from)
                           : fmt::format("gpu {} nic, lane {}", h.from, lane));
    }
    lane_free[lane] = h.end;
    transfer_slice(events, w, pid, static_cast<int>(lane) * f.gpus + h.from, h, hops[k].task,
                   scratch);
  }
}

void port_tracks(JsonArrayWriter& events, const workload::Workload& w, const Fabric& f,
                 const SimResult& r) {
  const int pid = 1;
  auto tid = [&](int sw, int gpu) { return sw * f.gpus + gpu; };
  track_name(events, "process_name", pid, 0, "OCS ports (gpu, ocs)");
  for (int sw = 0; sw < f.ocs; ++sw)
    for (int g = 0; g < f.gpus; ++g)
      track_name(events, "thread_name", pid, tid(sw, g), fmt::format("gpu {} / ocs {}", g, sw));
  const Time tau = to_time(f.reconfig_delay);
  // Per port (sw · gpus + gpu): its current partner (-1: none yet) and the end of its last
  // circuit. Flat arrays: a rotor run looks them up for millions of circuits.
  const std::size_t ports = static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(f.gpus);
  std::vector<int> partner(ports, -1);
  std::vector<Time> free_at(ports, 0);
  std::vector<TimedCircuit> circuits = r.schedule.circuits;
  std::stable_sort(circuits.begin(), circuits.end(),
                   [](const TimedCircuit& a, const TimedCircuit& b) { return a.up < b.up; });
  std::string name;
  for (const TimedCircuit& c : circuits) {
    name = fmt::format("circuit {}-{}", c.a, c.b);
    for (auto [g, other] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      const auto port = static_cast<std::size_t>(tid(c.sw, g));
      const bool changed = partner[port] < 0 ? !f.initial_config_free : partner[port] != other;
      partner[port] = other;
      // The dark period starts τ before the circuit is up, but never before the previous circuit
      // on this port came down: times rounded to whole picoseconds could otherwise overlap it.
      const Time from = std::max<Time>({0, c.up - tau, free_at[port]});
      free_at[port] = std::max(free_at[port], c.down);
      if (changed && tau > 0 && from < c.up) {
        JsonObject e = slice(events, "reconfigure", "reconfigure", pid, tid(c.sw, g), from, c.up);
        e.object("args").field("ocs", c.sw).field("gpu", g).field("to", other).close();
        e.close();
      }
      JsonObject e = slice(events, name, "circuit", pid, tid(c.sw, g), c.up, c.down);
      e.object("args").field("ocs", c.sw).field("a", c.a).field("b", c.b).close();
      e.close();
    }
  }
  // Hops of the ideal electrical fabric have no port: they go on the sending GPU's NIC.
  std::vector<ElectricalHop> electrical;
  for (std::size_t t = 0; t < w.tasks.size(); ++t)
    for (const Hop& h : r.trace.hops[t]) {
      if (h.sw < 0) {
        electrical.push_back({&h, t});
        continue;
      }
      transfer_slice(events, w, pid, tid(h.sw, h.from), h, t, name);
    }
  electrical_tracks(events, w, f, electrical, name);
}

// One counter track per GPU: NIC bytes, waiting bytes and HBM-held bytes at every breakpoint.
// Perfetto draws counters as steps, so a linear drain shows as one step at its end, and a jump
// needs only the value after it: the sample of the value before (the one just ahead of it in the
// series, same GPU and time) is left out.
void buffer_tracks(JsonArrayWriter& events, const std::vector<BufferSample>& series) {
  const int pid = 3;
  track_name(events, "process_name", pid, 0, "NIC buffer (bytes, per GPU)");
  char name[32];
  for (std::size_t k = 0; k < series.size(); ++k) {
    const BufferSample& s = series[k];
    if (k + 1 < series.size() && series[k + 1].gpu == s.gpu && series[k + 1].time == s.time)
      continue;
    const auto n = fmt::format_to_n(name, sizeof name, "gpu {} buffer", s.gpu).size;
    JsonObject e(events.next());
    e.field("name", std::string_view(name, n))
        .field("ph", "C")
        .field("pid", pid)
        .field("ts", s.time * 1e6);
    e.object("args")
        .field("nic", s.bytes)
        .field("waiting", s.waiting)
        .field("hbm_held", s.hbm)
        .close();
    e.close();
  }
}

}  // namespace

Json summary_document(const SimMetrics& m, const workload::Workload& w, const Fabric& f,
                      const RunContext& ctx) {
  return {{"format", "flux.summary/1"},
          {"version", FLUX_VERSION},
          {"scheduler",
           {{"name", ctx.scheduler},
            {"replayed", ctx.replayed},
            {"posting", to_string(m.posting)},
            {"options", options_json(ctx)}}},
          {"scenario", scenario_json(w, f, ctx)},
          {"iteration_time", m.iteration_time},
          {"compute_critical_path", m.compute_critical_path},
          {"exposed_comm", m.exposed_comm},
          {"lower_bound", m.lower_bound},
          {"peak_nic_buffer", m.peak_nic_buffer},
          {"mean_nic_buffer", m.mean_nic_buffer},
          {"peak_nic_buffer_total", m.peak_nic_buffer_total},
          {"peak_waiting_bytes", m.peak_waiting_bytes},
          {"peak_hbm_held", m.peak_hbm_held},
          {"peak_nic_buffer_eager", m.peak_nic_buffer_eager},
          {"reconfigurations", m.reconfigurations},
          {"dark_time", m.dark_time},
          {"circuit_utilization", m.circuit_utilization},
          {"bytes_injected", m.bytes_injected},
          {"bytes_delivered", m.bytes_delivered},
          {"hops", m.hops},
          {"events", m.events}};
}

std::string summary_json(const SimMetrics& m, const workload::Workload& w, const Fabric& f,
                         const RunContext& ctx) {
  return summary_document(m, w, f, ctx).dump(1) + "\n";
}

namespace {

// The text of each file, streamed into `out` as it is made (the files are tens to hundreds of MB
// at 1,024 GPUs).
void write_circuits_csv(std::ostream& out, const TimedSchedule& s) {
  BufferedText text(out);
  text.text() = report::csv_record("switch", "a", "b", "up", "down");
  for (const TimedCircuit& c : s.circuits)
    report::append_csv_record(text.text(), c.sw, c.a, c.b, to_seconds(c.up), to_seconds(c.down));
}

void write_flows_csv(std::ostream& out, const workload::Workload& w, const Trace& trace) {
  BufferedText text(out);
  text.text() = report::csv_record("task", "name", "src", "dst", "bytes", "ready", "start",
                                   "finish", "wait", "hops", "relayed_bytes");
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    const workload::Task& task = w.tasks[t];
    if (task.kind != workload::TaskKind::send) continue;
    double relayed = 0;
    for (const Hop& h : trace.hops[t]) relayed += h.to != task.dst ? h.bytes : 0.0;
    report::append_csv_record(
        text.text(), task.id, task.name, task.src, task.dst, task.bytes, to_seconds(trace.ready[t]),
        to_seconds(trace.start[t]), to_seconds(trace.finish[t]),
        to_seconds(trace.start[t] - trace.ready[t]), trace.hops[t].size(), relayed);
  }
}

void write_nic_buffer_csv(std::ostream& out, const std::vector<BufferSample>& series) {
  BufferedText text(out);
  text.text() = report::csv_record("time_s", "gpu", "nic_B", "waiting_B", "hbm_held_B");
  for (const BufferSample& s : series)
    report::append_csv_record(text.text(), s.time, s.gpu, s.bytes, s.waiting, s.hbm);
}

void write_timeline(std::ostream& out, const workload::Workload& w, const Fabric& f,
                    const SimResult& r, const std::vector<BufferSample>& series) {
  out << R"({"traceEvents":)";
  JsonArrayWriter events(out);  // one event at a time: a DOM of millions of events takes GBs
  track_name(events, "process_name", 0, 0, "GPU compute streams");
  for (int g = 0; g < w.gpus; ++g)
    track_name(events, "thread_name", 0, g, fmt::format("gpu {} compute", g));
  std::string name;
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    const workload::Task& task = w.tasks[t];
    if (task.kind != workload::TaskKind::compute) continue;
    JsonObject e = slice(events, task_label(task, name), "compute", 0, task.gpu, r.trace.start[t],
                         r.trace.finish[t]);
    e.object("args").field("task", task.id).close();
    e.close();
  }
  port_tracks(events, w, f, r);
  buffer_tracks(events, series);
  events.finish();
  out << R"(,"displayTimeUnit":"ns"})"
      << "\n";
}

template <class Write>
std::string to_text(Write write) {
  std::ostringstream out;
  write(out);
  return std::move(out).str();
}

}  // namespace

std::string circuits_csv(const TimedSchedule& s) {
  return to_text([&](std::ostream& out) { write_circuits_csv(out, s); });
}

std::string flows_csv(const workload::Workload& w, const Trace& trace) {
  return to_text([&](std::ostream& out) { write_flows_csv(out, w, trace); });
}

std::string nic_buffer_csv(const workload::Workload& w, const Fabric& f, const SimResult& r) {
  return sim_output_file("nic_buffer.csv", w, f, r);
}

void write_timeline_json(std::ostream& out, const workload::Workload& w, const Fabric& f,
                         const SimResult& r) {
  SimOutputWriter(w, f, r).write(out, "timeline.json");
}

std::string timeline_json(const workload::Workload& w, const Fabric& f, const SimResult& r) {
  return sim_output_file("timeline.json", w, f, r);
}

const std::vector<std::string>& sim_output_files() {
  static const std::vector<std::string> files = {"circuits.csv", "flows.csv", "nic_buffer.csv",
                                                 "circuit-schedule.json", "timeline.json"};
  return files;
}

SimOutputWriter::SimOutputWriter(const workload::Workload& w, const Fabric& f, const SimResult& r)
    : w_(w), f_(f), r_(r) {}

const std::vector<BufferSample>& SimOutputWriter::buffer_series() {
  if (r_.buffer_series) return *r_.buffer_series;  // kept from the metrics' sweep
  if (!series_) {
    series_.emplace();
    (void)nic_buffer(w_, r_.trace, buffer_model(f_, r_.schedule.posting),
                     r_.schedule.iteration_time, &*series_);
  }
  return *series_;
}

void SimOutputWriter::write(std::ostream& out, const std::string& name) {
  if (name == "circuits.csv") {
    write_circuits_csv(out, r_.schedule);
  } else if (name == "flows.csv") {
    write_flows_csv(out, w_, r_.trace);
  } else if (name == "nic_buffer.csv") {
    write_nic_buffer_csv(out, buffer_series());
  } else if (name == "timeline.json") {
    write_timeline(out, w_, f_, r_, buffer_series());
  } else {  // circuit-schedule.json
    write_circuit_schedule_json(out, to_circuit_schedule(r_.schedule, r_.trace.hops, w_, f_));
  }
}

std::string SimOutputWriter::text(const std::string& name) {
  return to_text([&](std::ostream& out) { write(out, name); });
}

void write_sim_output(std::ostream& out, const std::string& name, const workload::Workload& w,
                      const Fabric& f, const SimResult& r) {
  SimOutputWriter(w, f, r).write(out, name);
}

std::string sim_output_file(const std::string& name, const workload::Workload& w, const Fabric& f,
                            const SimResult& r) {
  return SimOutputWriter(w, f, r).text(name);
}

}  // namespace flux::fabric
