// fluxocs: workloads (flux.workload/1 files and flux.scenario/1 generation), their statistics and
// demand views, and simulate() / cosched() with their result tables. The tables are the CSV files
// `flux simulate` writes, turned into columns, so Python sees exactly the CLI's rows.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>

#include "cli/cosched_support.hpp"
#include "common.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/scheduler.hpp"
#include "fabric/sim_report.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/traffic_views.hpp"
#include "workload/workload_io.hpp"
#include "workload/workload_stats.hpp"

namespace fluxocs {
namespace {

using flux::InputError;

struct Workload {
  std::shared_ptr<const flux::Workload> w;
  std::string label;  // the file it came from, named in summaries and errors
};

struct Scenario {
  flux::Scenario s;
  std::string label;
};

// A dict is a JSON document given inline; anything else a file name.
bool is_document(py::handle v) {
  return py::isinstance<py::dict>(v);
}
std::string json_dumps(py::handle v) {
  return py::module_::import("json").attr("dumps")(v).cast<std::string>();
}

Workload workload_arg(py::handle v) {
  if (py::isinstance<Workload>(v)) return v.cast<Workload>();
  const std::string path = path_string(v);
  return {run_interruptible(
              [path] { return std::make_shared<const flux::Workload>(flux::read_workload(path)); }),
          path};
}

std::pair<flux::Fabric, std::string> fabric_arg(py::handle v) {
  if (is_document(v)) return {flux::parse_fabric(json_dumps(v), "fabric"), "fabric"};
  const std::string path = path_string(v);
  return {flux::read_fabric(path), path};
}

py::array_t<double> matrix_array(const flux::Matrix& m) {
  py::array_t<double> out({m.n(), m.n()});
  std::copy(m.data().begin(), m.data().end(), out.mutable_data());
  return out;
}

// ---- CSV text -> columns ------------------------------------------------------------------

// Splits RFC 4180 text (what the report writer produces) into records of fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"')
        field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"')
        field += text[++i];
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(std::move(field));
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

bool parse_number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

// One column: int64 when every cell is an integer, float64 when every cell is a number (empty
// cells as NaN), else a list of str.
py::object column(const std::vector<std::vector<std::string>>& rows, std::size_t c) {
  const auto k = static_cast<py::ssize_t>(rows.size() - 1);
  bool numeric = true, integral = true;
  std::vector<double> values(static_cast<std::size_t>(k));
  for (py::ssize_t r = 0; r < k && numeric; ++r) {
    const std::string& cell = rows[static_cast<std::size_t>(r) + 1][c];
    double& v = values[static_cast<std::size_t>(r)];
    if (cell.empty()) {
      v = std::nan("");
      integral = false;
    } else if (!parse_number(cell, v)) {
      numeric = false;
    } else if (cell.find_first_of(".eEn") != std::string::npos) {
      integral = false;
    }
  }
  if (!numeric) {
    py::list out;
    for (py::ssize_t r = 0; r < k; ++r) out.append(rows[static_cast<std::size_t>(r) + 1][c]);
    return out;
  }
  if (integral) {
    py::array_t<std::int64_t> out(k);
    for (py::ssize_t r = 0; r < k; ++r)
      out.mutable_at(r) = static_cast<std::int64_t>(values[static_cast<std::size_t>(r)]);
    return out;
  }
  py::array_t<double> out(k);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// A table as {column name: array or list}, which pandas.DataFrame takes as is.
py::dict columns(const std::string& csv) {
  const auto rows = parse_csv(csv);
  py::dict out;
  if (rows.empty()) return out;
  for (std::size_t c = 0; c < rows[0].size(); ++c) out[rows[0][c].c_str()] = column(rows, c);
  return out;
}

// ---- options ------------------------------------------------------------------------------

// Keyword arguments of simulate() and cosched(), mapped onto the library's option structs:
// SchedulerOptions for the simulator's schedulers and the CLI's FluxFlags (validated into
// FluxOptions) for flux / flux-greedy. This table is the only place that knows option names;
// when schedulers publish their options in a registry, it is what gets replaced.
struct RunOptions {
  flux::SchedulerOptions scheduler;
  flux::cli::FluxFlags flux;
};
using OptionSetter = void (*)(RunOptions&, py::handle);

// A time given as seconds or as a string with a unit.
std::string time_text(py::handle v) {
  return py::isinstance<py::str>(v) ? v.cast<std::string>() : fmt::format("{}s", v.cast<double>());
}
std::string bytes_text(py::handle v) {
  return py::isinstance<py::str>(v) ? v.cast<std::string>() : fmt::format("{}B", v.cast<double>());
}

const std::map<std::string, OptionSetter>& option_table() {
  using O = RunOptions;
  using H = py::handle;
  static const std::map<std::string, OptionSetter> table = {
      // simulator schedulers (SchedulerOptions)
      {"duty_cycle", [](O& o, H v) { o.scheduler.duty_cycle = v.cast<double>(); }},
      {"slot", [](O& o, H v) { o.scheduler.slot = flux::parse_time(time_text(v), "slot"); }},
      {"frame", [](O& o, H v) { o.scheduler.frame = flux::parse_time(time_text(v), "frame"); }},
      {"topology", [](O& o, H v) { o.scheduler.topology = v.cast<std::string>(); }},
      {"phase_algorithm", [](O& o, H v) { o.scheduler.phase_algorithm = v.cast<std::string>(); }},
      // flux and flux-greedy (FluxOptions, through the CLI's flags)
      {"time_limit", [](O& o, H v) { o.flux.time_limit = time_text(v); }},
      {"threads", [](O& o, H v) { o.flux.threads = v.cast<int>(); }},
      {"gap", [](O& o, H v) { o.flux.gap = v.cast<double>(); }},
      {"search_share", [](O& o, H v) { o.flux.search_share = v.cast<double>(); }},
      {"seed", [](O& o, H v) { o.flux.seed = v.cast<std::uint64_t>(); }},
      {"closure_memory", [](O& o, H v) { o.flux.closure_memory = bytes_text(v); }},
      {"window", [](O& o, H v) { o.flux.window = v.cast<int>(); }},
      {"monolithic_limit", [](O& o, H v) { o.flux.monolithic_limit = v.cast<int>(); }},
      {"prune", [](O& o, H v) { o.flux.no_prune = !v.cast<bool>(); }},
      {"symmetry", [](O& o, H v) { o.flux.no_symmetry = !v.cast<bool>(); }},
      {"reuse", [](O& o, H v) { o.flux.no_reuse = !v.cast<bool>(); }},
      {"lookahead", [](O& o, H v) { o.flux.no_lookahead = !v.cast<bool>(); }},
      {"aggregate", [](O& o, H v) { o.flux.aggregate = v.cast<bool>(); }},
      {"gap_fill", [](O& o, H v) { o.flux.no_gap_fill = !v.cast<bool>(); }},
      {"solver_log", [](O& o, H v) { o.flux.solver_log = v.cast<bool>(); }},
  };
  return table;
}

RunOptions run_options(const py::kwargs& kwargs) {
  RunOptions o;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    const auto it = option_table().find(name);
    if (it == option_table().end()) {
      std::string names;
      for (const auto& entry : option_table()) names += (names.empty() ? "" : ", ") + entry.first;
      throw InputError("", name, "not an option; valid: " + names);
    }
    try {
      it->second(o, value);
    } catch (const py::cast_error&) {
      throw InputError("", name, "a value of the option's type (number, bool or str)");
    }
  }
  return o;
}

// ---- runs ---------------------------------------------------------------------------------

// What a run hands back to Python, built off the GIL: the summary and the tables as text.
struct RunTexts {
  std::string summary, circuits, messages, nic_buffer, schedule;
};

RunTexts texts(const flux::Workload& w, const flux::Fabric& f, const flux::SimResult& r,
               std::string summary) {
  return {std::move(summary), flux::circuits_csv(r.schedule), flux::flows_csv(w, r.trace),
          flux::nic_buffer_csv(w, f, r),
          flux::circuit_schedule_to_json(flux::to_circuit_schedule(r.schedule, w, f))};
}

py::dict result_dict(const RunTexts& t) {
  py::dict d;
  d["summary"] = json_loads(t.summary);
  d["messages"] = columns(t.messages);
  d["circuits"] = columns(t.circuits);
  d["nic_buffer"] = columns(t.nic_buffer);
  d["schedule"] = t.schedule;
  return d;
}

py::dict simulate(py::handle workload, py::handle fabric, const std::string& scheduler,
                  const py::kwargs& kwargs) {
  const Workload w = workload_arg(workload);
  const auto [f, fabric_label] = fabric_arg(fabric);
  const RunOptions o = run_options(kwargs);
  const bool cosched = flux::cli::is_cosched_scheduler(scheduler);
  const flux::FluxOptions flux_options = cosched ? o.flux.options() : flux::FluxOptions{};
  const flux::RunContext ctx{w.label, fabric_label, scheduler, o.scheduler, false};
  return result_dict(run_interruptible([w, f = f, scheduler, o, cosched, flux_options, ctx] {
    const flux::SimResult r =
        cosched ? flux::cli::simulate_cosched(*w.w, f, scheduler, flux_options, w.label)
                : flux::simulate(*w.w, f, scheduler, o.scheduler, w.label);
    return texts(*w.w, f, r, flux::summary_json(r.metrics, *w.w, f, ctx));
  }));
}

py::dict cosched(py::handle workload, py::handle fabric, const std::string& scheduler,
                 const py::kwargs& kwargs) {
  const Workload w = workload_arg(workload);
  const auto [f, fabric_label] = fabric_arg(fabric);
  const flux::FluxOptions options = run_options(kwargs).flux.options();
  return result_dict(run_interruptible([w, f = f, fabric_label = fabric_label, scheduler, options] {
    const flux::CoschedInstance inst = flux::make_instance(*w.w, f, w.label);
    const flux::cli::CoschedRun run = flux::cli::run_cosched(inst, scheduler, options);
    return texts(inst.workload, f, run.sim,
                 flux::cli::summary_json(inst, run, options, w.label, fabric_label).dump(1) + "\n");
  }));
}

// ---- classes ------------------------------------------------------------------------------

void bind_classes(py::module_& m) {
  py::class_<Workload>(m, "Workload", "One training iteration as a DAG (flux.workload/1).")
      .def(py::init([](py::handle path) { return workload_arg(path); }), py::arg("path"),
           "Read a flux.workload/1 file.")
      .def_property_readonly("gpus", [](const Workload& w) { return w.w->gpus; })
      .def_property_readonly("tasks", [](const Workload& w) { return w.w->tasks.size(); })
      .def_property_readonly("label", [](const Workload& w) { return w.label; })
      .def(
          "stats",
          [](const Workload& w) {
            return json_loads(flux::stats_to_json(flux::workload_stats(*w.w)));
          },
          "Task counts, bytes per group and phase, compute critical path (as `flux workload "
          "stats --json`).")
      .def(
          "demand",
          [](const Workload& w, const std::string& phase, const std::string& group) {
            return matrix_array(flux::workload_demand(*w.w, {phase, group}).matrix);
          },
          py::arg("phase") = "", py::arg("group") = "",
          "Bytes sent from GPU i to GPU j (n x n array), of the sends matching phase and group.")
      .def(
          "phase_demands",
          [](const Workload& w) {
            flux::PhaseDemandSink sink;
            flux::replay_workload(*w.w, sink);
            py::dict out;
            for (const auto& [key, d] : sink.demands()) out[key.c_str()] = matrix_array(d.matrix);
            return out;
          },
          "One demand matrix per communication phase, keyed '<phase>-<group>'.")
      .def("to_json", [](const Workload& w) { return flux::workload_to_json(*w.w); });

  py::class_<Scenario>(m, "Scenario", "A flux.scenario/1 description of a training job.")
      .def(py::init([](py::handle source) {
             if (is_document(source))
               return Scenario{flux::parse_scenario(json_dumps(source), "scenario"), "scenario"};
             const std::string path = path_string(source);
             return Scenario{flux::read_scenario(path), path};
           }),
           py::arg("source"), "From a dict (the JSON document) or a file name.")
      .def(
          "workload",
          [](const Scenario& s) {
            return Workload{
                run_interruptible([s] {
                  return std::make_shared<const flux::Workload>(flux::build_workload(s.s));
                }),
                s.label};
          },
          "Generate the iteration's DAG (as `flux workload generate`).")
      .def(
          "to_json", [](const Scenario& s) { return flux::scenario_to_json(s.s); },
          "The effective configuration (presets resolved, derived values added).");
}

}  // namespace

void bind_workload(py::module_& m) {
  bind_classes(m);
  m.def("simulate", &simulate, py::arg("workload"), py::arg("fabric"), py::arg("scheduler"),
        R"(Simulate one iteration under a scheduler (as `flux simulate`).

workload: a Workload or a flux.workload/1 file; fabric: a flux.fabric/1 dict or file.
scheduler: a simulator scheduler (rotornet, bvn, ...) or flux / flux-greedy.
Keyword options: duty_cycle, slot, frame, topology, phase_algorithm (simulator schedulers);
time_limit, threads, gap, search_share, seed, closure_memory, window, monolithic_limit, prune,
symmetry, reuse, lookahead, aggregate, gap_fill, solver_log (flux, flux-greedy).
Returns {"summary": dict (flux.summary/1), "messages", "circuits", "nic_buffer": column dicts
(pandas.DataFrame(...) takes them), "schedule": flux.circuit-schedule/1 text}.)");
  m.def("cosched", &cosched, py::arg("workload"), py::arg("fabric"), py::arg("scheduler") = "flux",
        R"(Schedule with Flux (or flux-greedy), replay in the simulator (as `flux cosched`).

Same arguments, options and result as simulate(); the summary adds the solver report.)");
  m.def(
      "schedulers",
      [] {
        py::dict d;
        for (const flux::Scheduler& s : flux::schedulers()) d[s.name.c_str()] = s.description;
        d["flux"] = "Flux: critical-path local search and MILP (src/cosched)";
        d["flux-greedy"] = "Flux's greedy list scheduler (src/cosched)";
        return d;
      },
      "Every workload scheduler simulate() accepts: {name: description}.");
}

}  // namespace fluxocs
