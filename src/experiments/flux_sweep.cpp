#include "experiments/flux_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/units.hpp"
#include "experiments/paper_setup.hpp"
#include "fabric/fabric_io.hpp"
#include "report/csv.hpp"
#include "report/csv_reader.hpp"
#include "report/svg_plot.hpp"

namespace flux::experiments {
namespace {

// The schedulers the Flux paper's claims compare against: they cycle through circuits without
// knowing the workload's timing.
constexpr const char* kPeriodic[] = {"rotornet", "rotornet-vlb", "bvn-periodic"};

FluxSweepRow run_one(const FluxSweep& sweep, const cosched::CoschedInstance& inst,
                     const std::string& name, Progress& progress) {
  FluxSweepRow row{0, inst.fabric.reconfig_delay, name, {}, false, {}, {}};
  const auto given = sweep.options.find(name);
  try {
    const schedulers::SchedulerResult r =
        run_scheduler(schedulers::workload_scheduler(name),
                      {inst.workload, inst.fabric, "workload", &inst, sweep.fabric_label, progress},
                      given == sweep.options.end() ? OptionValues{} : given->second);
    row.m = r.sim.metrics;
    row.has_solver = r.solver.has_value();
    if (r.solver) row.solver = *r.solver;
  } catch (const InputError& e) {  // e.g. no static topology connects every pair: report, go on
    row.failure = sweep.failure_text(e);
    row.m.iteration_time = row.m.peak_nic_buffer = row.m.peak_waiting_bytes = NAN;
    row.m.peak_nic_buffer_eager = NAN;
  }
  return row;
}

// The smallest value of `metric` among the named schedulers that ran this case (inf if none did).
double best_of(const std::vector<FluxSweepRow>& rows, int layers, double tau,
               double fabric::SimMetrics::*metric, const std::vector<std::string>& names) {
  double best = INFINITY;
  for (const FluxSweepRow& r : rows)
    if (r.layers == layers && r.tau == tau && r.failure.empty() &&
        std::find(names.begin(), names.end(), r.scheduler) != names.end())
      best = std::min(best, r.m.*metric);
  return best;
}

std::string times(double other, double flux) {
  if (flux <= 0) return "inf";
  const double r = other / flux;
  return r < 1000 ? fmt::format("{:.3g}x", r) : fmt::format("{:.0f}x", r);  // never 1e+03x
}

// Flux against each periodic scheduler and the best of them (each metric's best separately):
// other / flux, so above 1 Flux is better. The eager metric's ratio stands beside the buffer's.
std::string claim(const std::vector<FluxSweepRow>& rows, int layers, double tau) {
  const double flux_t = best_of(rows, layers, tau, &fabric::SimMetrics::iteration_time, {"flux"});
  if (!std::isfinite(flux_t)) return "";
  const double flux_b = best_of(rows, layers, tau, &fabric::SimMetrics::peak_nic_buffer, {"flux"});
  const double flux_e =
      best_of(rows, layers, tau, &fabric::SimMetrics::peak_nic_buffer_eager, {"flux"});
  std::vector<std::string> periodic;
  for (const char* name : kPeriodic)
    if (std::isfinite(best_of(rows, layers, tau, &fabric::SimMetrics::iteration_time, {name})))
      periodic.emplace_back(name);
  if (periodic.empty())
    return "flux: no periodic scheduler (rotornet, rotornet-vlb, bvn-periodic) ran in this case, "
           "nothing to compare with\n";
  std::string out = fmt::format("{:<16} {:>18} {:>21} {:>15}\n", "flux vs", "shorter iteration",
                                "less peak NIC buffer", "(eager metric)");
  auto line = [&](const std::string& label, const std::vector<std::string>& names) {
    out += fmt::format(
        "{:<16} {:>18} {:>21} {:>15}\n", label,
        times(best_of(rows, layers, tau, &fabric::SimMetrics::iteration_time, names), flux_t),
        times(best_of(rows, layers, tau, &fabric::SimMetrics::peak_nic_buffer, names), flux_b),
        times(best_of(rows, layers, tau, &fabric::SimMetrics::peak_nic_buffer_eager, names),
              flux_e));
  };
  for (const std::string& name : periodic) line(name, {name});
  if (periodic.size() > 1) line("best periodic", periodic);
  return out;
}

// "Llama-3 8B, 8 layers, TP4xDP2, 8 GPUs, 2 OCS"
std::string case_title(const FluxSweep& sweep, int layers) {
  return fmt::format("{}, {} layers, {}, {} GPUs, {} OCS", sweep.model_label, layers,
                     parallelism_label(sweep.scenario.parallel), sweep.fabric.gpus,
                     sweep.fabric.ocs);
}

}  // namespace

std::vector<std::string> flux_sweep_schedulers() {
  return {"flux",         "flux-greedy",   "rotornet", "rotornet-vlb", "bvn",
          "bvn-periodic", "spectra-phase", "static",   "ideal"};
}

FluxSweep paper_flux_sweep() {
  FluxSweep sweep;
  sweep.scenario = workload::read_scenario(paper_scenario_path());
  sweep.model_label = "Llama-3 8B";
  sweep.fabric = fabric::read_fabric(paper_fabric_path());
  sweep.layers = {8, 16};
  sweep.taus = {1e-6, 1e-5, 1e-4, 1e-3};
  return sweep;
}

void check_schedulers(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (!schedulers::find_workload_scheduler(n))
      throw InputError("", "schedulers", "known scheduler names, not " + n);
}

std::vector<FluxSweepRow> run_flux_case(const FluxSweep& sweep, const workload::Workload& workload,
                                        int layers, double tau, Progress& progress) {
  const fabric::Fabric f = with_tau(sweep.fabric, tau);
  const cosched::CoschedInstance inst = cosched::make_instance_over(workload, f, sweep.model_label);
  std::vector<FluxSweepRow> rows;
  for (const auto& n : sweep.schedulers) {
    rows.push_back(run_one(sweep, inst, n, progress));
    rows.back().layers = layers;
    progress.advance(1, fmt::format("{} layers, tau {}: {} done", layers, format_time(tau), n));
  }
  return rows;
}

std::string flux_case_table(const FluxSweep& sweep, const std::vector<FluxSweepRow>& rows,
                            int layers, double tau) {
  std::string out = fmt::format("\n{}, tau = {}\n", case_title(sweep, layers), format_time(tau));
  out += fmt::format("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", "scheduler",
                     "posting", "iteration", "peak NIC buf", "waiting", "eager buf", "reconf",
                     "vs ideal", "solver");
  const double ideal = best_of(rows, layers, tau, &fabric::SimMetrics::iteration_time, {"ideal"});
  for (const FluxSweepRow& r : rows) {
    if (r.layers != layers || r.tau != tau) continue;
    if (!r.failure.empty()) {  // no schedule: no numbers, just why
      out += fmt::format("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", r.scheduler,
                         "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", r.failure);
      continue;
    }
    std::string solver;
    if (r.has_solver)
      solver = fmt::format("{} gap {:.2f}% {:.1f}s {}w", to_string(r.solver.status),
                           100 * r.solver.gap, r.solver.seconds, r.solver.windows);
    out += fmt::format("{:<14} {:>9} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9.3f}x  {}\n",
                       r.scheduler, to_string(r.m.posting), format_time(r.m.iteration_time),
                       format_bytes(r.m.peak_nic_buffer), format_bytes(r.m.peak_waiting_bytes),
                       format_bytes(r.m.peak_nic_buffer_eager), r.m.reconfigurations,
                       r.m.iteration_time / ideal, solver);
  }
  out += claim(rows, layers, tau);
  const double flux_t = best_of(rows, layers, tau, &fabric::SimMetrics::iteration_time, {"flux"});
  if (std::isfinite(flux_t) && std::isfinite(ideal))
    out += fmt::format("flux: {:.3f}x the ideal fabric's iteration time\n", flux_t / ideal);
  return out;
}

std::string flux_case_legend() {
  return "\ncolumns: posting = when hosts hand a message to the NIC (timetable: at its planned "
         "start; ready:\n"
         "  when its predecessors are done); iteration = simulated iteration time; peak NIC buf "
         "= the most\n"
         "  bytes one GPU's NIC holds (waiting bytes + staging windows + relayed bytes); waiting "
         "= its part\n"
         "  posted but not yet on the wire; eager buf = the earlier metric (every message posted "
         "when ready,\n"
         "  held whole); reconf = port reconfigurations; vs ideal = iteration / the ideal "
         "electrical fabric's;\n"
         "  solver = flux's MILP status, gap between its schedule and the Flux-model bound, "
         "seconds, windows.\n"
         "  'shorter iteration' and 'less peak NIC buffer' are the periodic scheduler's value "
         "over flux's.\n"
         "  Definitions: docs/models.md.\n";
}

std::string flux_sweep_csv(const std::vector<FluxSweepRow>& rows) {
  auto g9 = [](double v) { return fmt::format("{:.9g}", v); };
  std::string out = report::csv_record(
      "layers", "tau_s", "scheduler", "posting", "iteration_time_s", "peak_nic_buffer_B",
      "peak_waiting_B", "mean_nic_buffer_B", "peak_nic_buffer_total_B", "peak_hbm_held_B",
      "peak_nic_buffer_eager_B", "reconfigurations", "lower_bound_s", "solver_status", "solver_gap",
      "solver_s", "failure");
  for (const FluxSweepRow& r : rows)
    report::append_csv_record(
        out, r.layers, g9(r.tau), r.scheduler, r.failure.empty() ? to_string(r.m.posting) : "",
        g9(r.m.iteration_time), g9(r.m.peak_nic_buffer), g9(r.m.peak_waiting_bytes),
        g9(r.m.mean_nic_buffer), g9(r.m.peak_nic_buffer_total), g9(r.m.peak_hbm_held),
        g9(r.m.peak_nic_buffer_eager), r.m.reconfigurations, g9(r.m.lower_bound),
        r.has_solver ? to_string(r.solver.status) : "",
        r.has_solver ? fmt::format("{:.6g}", r.solver.gap) : "",
        r.has_solver ? fmt::format("{:.3f}", r.solver.seconds) : "", r.failure);
  return out;
}

namespace {

template <class T>
void add_once(std::vector<T>& list, const T& v) {
  if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

}  // namespace

FluxSweepCsv read_flux_sweep_csv(std::string_view text, const std::string& file) {
  const report::CsvTable t(text, file);
  const std::size_t layers = t.column("layers"), tau = t.column("tau_s"),
                    name = t.column("scheduler"), it = t.column("iteration_time_s"),
                    buffer = t.column("peak_nic_buffer_B"), failure = t.column("failure");
  if (t.rows() == 0) throw InputError(file, "line 2", "at least one row after the header");
  FluxSweepCsv out;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    FluxSweepRow row;
    row.layers = static_cast<int>(t.integer(r, layers, 1, 1'000'000));
    row.tau = t.number(r, tau);
    row.scheduler = t.text(r, name);
    if (row.scheduler.empty())
      throw InputError(file, fmt::format("line {}, column scheduler", t.line(r)),
                       "a scheduler name, found \"\"");
    row.failure = t.text(r, failure);
    // A failed case has no numbers (the writer prints nan): it stays off the figures.
    row.m.iteration_time = row.failure.empty() ? t.number(r, it) : NAN;
    row.m.peak_nic_buffer = row.failure.empty() ? t.number(r, buffer) : NAN;
    add_once(out.layers, row.layers);
    add_once(out.schedulers, row.scheduler);
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> flux_sweep_plots(
    const FluxSweep& sweep, const std::vector<FluxSweepRow>& rows, int layers) {
  std::vector<std::pair<std::string, std::string>> out;
  for (bool buffer : {false, true}) {
    report::LinePlot p;
    p.title =
        fmt::format("{}, {:g} Gb/s", case_title(sweep, layers), sweep.fabric.link_rate * 8 / 1e9);
    p.x = {"reconfiguration delay τ", true, {}, {}, false, report::AxisUnit::seconds};
    p.y = {buffer ? "peak NIC buffer" : "iteration time",
           true,
           {},
           {},
           false,
           buffer ? report::AxisUnit::bytes : report::AxisUnit::seconds};
    for (const std::string& n : sweep.schedulers) {
      report::PlotSeries s{n, {}, {}, n != "flux" && n != "flux-greedy", true, ""};
      for (const FluxSweepRow& r : rows)
        if (r.layers == layers && r.scheduler == n) {
          s.x.push_back(r.tau);
          s.y.push_back(buffer ? std::max(r.m.peak_nic_buffer, 1.0) : r.m.iteration_time);
        }
      p.series.push_back(std::move(s));
    }
    out.emplace_back(
        fmt::format("{}_{}l.svg", buffer ? "peak_nic_buffer" : "iteration_time", layers),
        render_svg(p));
  }
  return out;
}

}  // namespace flux::experiments
