// fluxocs: workloads (flux.workload/1 files and flux.scenario/1 generation), their statistics and
// demand views, and simulate() / cosched() with their result tables. The tables are the CSV files
// `flux simulate` writes, turned into columns, so Python sees exactly the CLI's rows.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>

#include "common.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "fabric/fabric_io.hpp"
#include "fabric/sim_report.hpp"
#include "schedulers/registry.hpp"
#include "schedulers/run_summary.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/traffic_views.hpp"
#include "workload/workload_io.hpp"
#include "workload/workload_stats.hpp"

namespace fluxocs {
namespace {

using flux::InputError;

struct Workload {
  std::shared_ptr<const flux::workload::Workload> w;
  std::string label;  // the file it came from, named in summaries and errors
};

struct Scenario {
  flux::workload::Scenario s;
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
  return {run_interruptible([path] {
            return std::make_shared<const flux::workload::Workload>(
                flux::workload::read_workload(path));
          }),
          path};
}

std::pair<flux::fabric::Fabric, std::string> fabric_arg(py::handle v) {
  if (is_document(v)) return {flux::fabric::parse_fabric(json_dumps(v), "fabric"), "fabric"};
  const std::string path = path_string(v);
  return {flux::fabric::read_fabric(path), path};
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

// Keyword arguments of simulate() and cosched() are the keys of the scheduler's options table in
// the registry, each converted by the option's type: bool, int, float, str; a time or a size is
// a number (seconds, bytes) or a string with its unit ("10us", "4GiB"), and any option may be
// given as the string the command line takes. Ranges and choices are checked by run_scheduler.
std::string valid_keys(const flux::OptionTable& table) {
  std::string keys;
  for (const flux::OptionSpec& spec : table) keys += (keys.empty() ? "" : ", ") + spec.key;
  return keys.empty() ? "(none)" : keys;
}

flux::OptionValue option_value(const flux::OptionSpec& spec, py::handle v) {
  using T = flux::OptionType;
  if (py::isinstance<py::str>(v)) return flux::parse_option(spec, v.cast<std::string>(), spec.key);
  const bool is_bool = py::isinstance<py::bool_>(v);
  const bool is_number = !is_bool && (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v));
  switch (spec.type) {
    case T::boolean:
      if (is_bool) return v.cast<bool>();
      break;
    case T::integer:
      if (py::isinstance<py::int_>(v) && !is_bool) return v.cast<std::int64_t>();
      break;
    case T::real:
    case T::time:
    case T::bytes:
      if (is_number) return v.cast<double>();
      break;
    case T::text:
    case T::time_or_tau:  // a string: "5ms" or "100tau"
      break;
  }
  throw InputError("", spec.key, fmt::format("a {} value", flux::to_string(spec.type)));
}

flux::OptionValues option_values(const flux::schedulers::WorkloadScheduler& scheduler,
                                 const py::kwargs& kwargs) {
  flux::OptionValues given;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    const flux::OptionSpec* spec = flux::find_option(scheduler.options, name);
    if (spec == nullptr)
      throw InputError("", name,
                       fmt::format("not an option of {}; valid: {}", scheduler.name,
                                   valid_keys(scheduler.options)));
    try {
      given.set(name, option_value(*spec, value));
    } catch (const py::cast_error&) {  // an int too large for int64
      throw InputError("", name, fmt::format("a {} value", flux::to_string(spec->type)));
    }
  }
  return given;
}

// ---- runs ---------------------------------------------------------------------------------

// What a run hands back to Python, built off the GIL: the summary and the tables as text. The
// schedule is the simulator's form, as `flux simulate` writes it; `flux cosched` (placed = true)
// writes the scheduler's own file form when it has one (exact times).
struct RunTexts {
  std::string summary, circuits, messages, nic_buffer, schedule;
};

RunTexts texts(const flux::workload::Workload& w, const flux::fabric::Fabric& f,
               const flux::schedulers::SchedulerResult& run, const nlohmann::ordered_json& summary,
               bool placed) {
  const flux::fabric::SimResult& r = run.sim;
  return {summary.dump(1) + "\n", flux::fabric::circuits_csv(r.schedule),
          flux::fabric::flows_csv(w, r.trace), flux::fabric::nic_buffer_csv(w, f, r),
          flux::fabric::circuit_schedule_to_json(
              placed && run.placed
                  ? *run.placed
                  : flux::fabric::to_circuit_schedule(r.schedule, r.trace.hops, w, f))};
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
  const flux::schedulers::WorkloadScheduler& s = flux::schedulers::workload_scheduler(scheduler);
  const flux::OptionValues given = option_values(s, kwargs);
  return result_dict(run_interruptible([w, f = f, fabric_label = fabric_label, &s, given] {
    const flux::schedulers::SchedulerResult run =
        flux::schedulers::run_scheduler(s, {*w.w, f, w.label, nullptr, fabric_label}, given);
    return texts(*w.w, f, run, flux::schedulers::run_summary(run, *w.w, f, w.label, fabric_label),
                 false);
  }));
}

// As `flux cosched`: the instance of the co-scheduling model is built once, and the summary
// counts its messages.
py::dict cosched(py::handle workload, py::handle fabric, const std::string& scheduler,
                 const py::kwargs& kwargs) {
  const Workload w = workload_arg(workload);
  const auto [f, fabric_label] = fabric_arg(fabric);
  const flux::schedulers::WorkloadScheduler& s = flux::schedulers::workload_scheduler(scheduler);
  const flux::OptionValues given = option_values(s, kwargs);
  return result_dict(run_interruptible([w, f = f, fabric_label = fabric_label, &s, given] {
    const flux::cosched::CoschedInstance inst = flux::cosched::make_instance_over(*w.w, f, w.label);
    flux::schedulers::SchedulingInput in{inst.workload, inst.fabric, w.label, &inst, fabric_label};
    in.keep_placed = true;  // the schedule in its exact times, as `flux cosched` writes it
    const flux::schedulers::SchedulerResult run = flux::schedulers::run_scheduler(s, in, given);
    auto summary = flux::schedulers::run_summary(run, inst.workload, f, w.label, fabric_label);
    summary["scenario"]["messages"] = inst.message_count();
    return texts(inst.workload, f, run, summary, true);
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
            return json_loads(flux::workload::stats_to_json(flux::workload::workload_stats(*w.w)));
          },
          "Task counts, bytes per group and phase, compute critical path (as `flux workload "
          "stats --json`).")
      .def(
          "demand",
          [](const Workload& w, const std::string& phase, const std::string& group) {
            return matrix_array(flux::workload::workload_demand(*w.w, {phase, group}).matrix);
          },
          py::arg("phase") = "", py::arg("group") = "",
          "Bytes sent from GPU i to GPU j (n x n array), of the sends matching phase and group.")
      .def(
          "phase_demands",
          [](const Workload& w) {
            flux::workload::PhaseDemandSink sink;
            flux::workload::replay_workload(*w.w, sink);
            py::dict out;
            for (const auto& [key, d] : sink.demands()) out[key.c_str()] = matrix_array(d.matrix);
            return out;
          },
          "One demand matrix per communication phase, keyed '<phase>-<group>'.")
      .def("to_json", [](const Workload& w) { return flux::workload::workload_to_json(*w.w); });

  py::class_<Scenario>(m, "Scenario", "A flux.scenario/1 description of a training job.")
      .def(py::init([](py::handle source) {
             if (is_document(source))
               return Scenario{flux::workload::parse_scenario(json_dumps(source), "scenario"),
                               "scenario"};
             const std::string path = path_string(source);
             return Scenario{flux::workload::read_scenario(path), path};
           }),
           py::arg("source"), "From a dict (the JSON document) or a file name.")
      .def(
          "workload",
          [](const Scenario& s) {
            return Workload{run_interruptible([s] {
                              return std::make_shared<const flux::workload::Workload>(
                                  flux::workload::build_workload(s.s));
                            }),
                            s.label};
          },
          "Generate the iteration's DAG (as `flux workload generate`).")
      .def(
          "to_json", [](const Scenario& s) { return flux::workload::scenario_to_json(s.s); },
          "The effective configuration (presets resolved, derived values added).");
}

}  // namespace

void bind_workload(py::module_& m) {
  bind_classes(m);
  m.def("simulate", &simulate, py::arg("workload"), py::arg("fabric"), py::arg("scheduler"),
        R"(Simulate one iteration under a scheduler (as `flux simulate`).

workload: a Workload or a flux.workload/1 file; fabric: a flux.fabric/1 dict or file.
scheduler: any registered workload scheduler (schedulers() lists them, flux and flux-greedy
included). Keyword options: the keys of the scheduler's options table (scheduler_options(name));
times and sizes take numbers (seconds, bytes) or strings with units ("10us", "4GiB").
Returns {"summary": dict (flux.summary/1), "messages", "circuits", "nic_buffer": column dicts
(pandas.DataFrame(...) takes them), "schedule": flux.circuit-schedule/1 text}.)");
  m.def("cosched", &cosched, py::arg("workload"), py::arg("fabric"), py::arg("scheduler") = "flux",
        R"(Schedule with Flux (or flux-greedy), replay in the simulator (as `flux cosched`).

Same arguments, options and result as simulate(); the summary adds the solver report.)");
  m.def(
      "schedulers",
      [] {
        py::dict d;
        for (const flux::schedulers::WorkloadScheduler& s : flux::schedulers::workload_schedulers())
          d[s.name.c_str()] = s.description;
        return d;
      },
      "Every workload scheduler simulate() accepts: {name: description}.");
  m.def(
      "scheduler_options",
      [](const std::string& name) {
        py::dict d;
        for (const flux::OptionSpec& spec : flux::schedulers::workload_scheduler(name).options) {
          py::dict o;
          o["type"] = std::string(flux::to_string(spec.type));
          o["default"] = flux::default_text(spec);
          o["help"] = flux::describe(spec);
          d[spec.key.c_str()] = o;
        }
        return d;
      },
      py::arg("scheduler"),
      "The scheduler's options, the keyword arguments simulate() and cosched() take: "
      "{key: {type, default, help}}.");
}

}  // namespace fluxocs
