#include "experiments/flux_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/units.hpp"
#include "experiments/paper_setup.hpp"
#include "fabric/fabric_io.hpp"
#include "report/svg_plot.hpp"

namespace flux {
namespace {

constexpr const char* kPeriodic[] = {"rotornet", "rotornet-vlb", "bvn", "bvn-periodic"};

FluxSweepRow run_one(const FluxSweep& sweep, const CoschedInstance& inst, const std::string& name) {
  FluxSweepRow row{0, inst.fabric.reconfig_delay, name, {}, false, {}, {}};
  const auto given = sweep.options.find(name);
  try {
    const SchedulerResult r =
        run_scheduler(workload_scheduler(name), {inst.workload, inst.fabric, "workload", &inst},
                      given == sweep.options.end() ? OptionValues{} : given->second);
    row.m = r.sim.metrics;
    row.has_solver = r.solver.has_value();
    if (r.solver) row.solver = *r.solver;
  } catch (const InputError& e) {  // e.g. no static topology connects every pair: report, go on
    row.failure = sweep.failure_text(e);
    row.m.iteration_time = row.m.peak_nic_buffer = row.m.peak_waiting_bytes = NAN;
  }
  return row;
}

double best_of(const std::vector<FluxSweepRow>& rows, int layers, double tau, bool buffer,
               const std::vector<std::string>& names) {
  double best = INFINITY;
  for (const FluxSweepRow& r : rows)
    if (r.layers == layers && r.tau == tau &&
        std::find(names.begin(), names.end(), r.scheduler) != names.end())
      best = std::min(best, buffer ? r.m.peak_nic_buffer : r.m.iteration_time);
  return best;
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
  sweep.scenario = read_scenario(paper_scenario_path());
  sweep.model_label = "Llama-3 8B";
  sweep.fabric = read_fabric(paper_fabric_path());
  sweep.layers = {8, 16};
  sweep.taus = {1e-6, 1e-5, 1e-4, 1e-3};
  return sweep;
}

void check_schedulers(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (!find_workload_scheduler(n))
      throw InputError("", "schedulers", "known scheduler names, not " + n);
}

std::vector<FluxSweepRow> run_flux_case(const FluxSweep& sweep, const Workload& workload,
                                        int layers, double tau) {
  const Fabric f = with_tau(sweep.fabric, tau);
  const CoschedInstance inst = make_instance(workload, f, sweep.model_label);
  std::vector<FluxSweepRow> rows;
  for (const auto& n : sweep.schedulers) {
    rows.push_back(run_one(sweep, inst, n));
    rows.back().layers = layers;
  }
  return rows;
}

std::string flux_case_table(const FluxSweep& sweep, const std::vector<FluxSweepRow>& rows,
                            int layers, double tau) {
  std::string out = fmt::format("\n{}, tau = {}\n", case_title(sweep, layers), format_time(tau));
  out += fmt::format("{:<14} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", "scheduler", "iteration",
                     "peak NIC buf", "waiting", "reconf", "vs ideal", "solver");
  double ideal = best_of(rows, layers, tau, false, {"ideal"});
  for (const FluxSweepRow& r : rows) {
    if (r.layers != layers || r.tau != tau) continue;
    if (!r.failure.empty()) {  // no schedule: no numbers, just why
      out += fmt::format("{:<14} {:>12} {:>12} {:>12} {:>8} {:>10}  {}\n", r.scheduler, "n/a",
                         "n/a", "n/a", "n/a", "n/a", r.failure);
      continue;
    }
    std::string solver;
    if (r.has_solver)
      solver = fmt::format("{} gap {:.2f}% {:.1f}s {}w", to_string(r.solver.status),
                           100 * r.solver.gap, r.solver.seconds, r.solver.windows);
    out += fmt::format("{:<14} {:>12} {:>12} {:>12} {:>8} {:>9.3f}x  {}\n", r.scheduler,
                       format_time(r.m.iteration_time), format_bytes(r.m.peak_nic_buffer),
                       format_bytes(r.m.peak_waiting_bytes), r.m.reconfigurations,
                       r.m.iteration_time / ideal, solver);
  }
  const std::vector<std::string> periodic(std::begin(kPeriodic), std::end(kPeriodic));
  const double flux_t = best_of(rows, layers, tau, false, {"flux"});
  const double flux_b = best_of(rows, layers, tau, true, {"flux"});
  out += fmt::format(
      "flux: {:.2f}x faster than the best periodic scheduler, {:.3g}x its peak NIC buffer; "
      "{:.3f}x the ideal fabric\n",
      best_of(rows, layers, tau, false, periodic) / flux_t,
      flux_b / std::max(best_of(rows, layers, tau, true, periodic), 1.0), flux_t / ideal);
  return out;
}

std::string flux_sweep_csv(const std::vector<FluxSweepRow>& rows) {
  std::string out =
      "layers,tau_s,scheduler,iteration_time_s,peak_nic_buffer_B,peak_waiting_B,"
      "mean_nic_buffer_B,reconfigurations,lower_bound_s,solver_status,solver_gap,solver_s,"
      "failure\n";
  for (const FluxSweepRow& r : rows)
    out += fmt::format("{},{:.9g},{},{:.9g},{:.9g},{:.9g},{:.9g},{},{:.9g},{},{},{},\"{}\"\n",
                       r.layers, r.tau, r.scheduler, r.m.iteration_time, r.m.peak_nic_buffer,
                       r.m.peak_waiting_bytes, r.m.mean_nic_buffer, r.m.reconfigurations,
                       r.m.lower_bound, r.has_solver ? to_string(r.solver.status) : "",
                       r.has_solver ? fmt::format("{:.6g}", r.solver.gap) : "",
                       r.has_solver ? fmt::format("{:.3f}", r.solver.seconds) : "", r.failure);
  return out;
}

std::vector<std::pair<std::string, std::string>> flux_sweep_plots(
    const FluxSweep& sweep, const std::vector<FluxSweepRow>& rows, int layers) {
  std::vector<std::pair<std::string, std::string>> out;
  for (bool buffer : {false, true}) {
    LinePlot p;
    p.title =
        fmt::format("{}, {:g} Gb/s", case_title(sweep, layers), sweep.fabric.link_rate * 8 / 1e9);
    p.x = {"reconfiguration delay tau (s)", true, {}, {}, false};
    p.y = {buffer ? "peak NIC buffer (bytes)" : "iteration time (s)", true, {}, {}, false};
    for (const std::string& n : sweep.schedulers) {
      PlotSeries s{n, {}, {}, n != "flux" && n != "flux-greedy", true, ""};
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

}  // namespace flux
