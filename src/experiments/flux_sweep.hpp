#pragma once
// The Flux paper's experiment as a library: one scenario at several layer counts on one fabric at
// several reconfiguration delays τ, every named workload scheduler replayed by the same
// simulator. `flux bench flux` and `flux run` print its tables; the CSV and the SVG figures
// (iteration time and peak NIC buffer against τ, log scales) come from here too.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "fabric/metrics.hpp"
#include "schedulers/registry.hpp"
#include "workload/scenario.hpp"

namespace flux::experiments {

// The default scheduler list, in table order; rotornet, rotornet-vlb and bvn-periodic are the
// periodic ones Flux is compared with.
[[nodiscard]] std::vector<std::string> flux_sweep_schedulers();

struct FluxSweep {
  workload::Scenario scenario;          // its num_layers is replaced by each of `layers`
  std::string model_label;              // "Llama-3 8B": how titles name the model
  fabric::Fabric fabric;                // its reconfig_delay is replaced by each of `taus`
  std::string fabric_label = "fabric";  // its file, named when a scheduler refuses its size
  std::vector<int> layers;
  std::vector<double> taus;  // seconds
  std::vector<std::string> schedulers = flux_sweep_schedulers();
  std::map<std::string, OptionValues> options;  // per scheduler name; absent = its defaults
  // How a scheduler's InputError reads in the table (the command line names its flags).
  std::function<std::string(const InputError&)> failure_text = [](const InputError& e) {
    return std::string(e.what());
  };
};

// The paper's sweep: examples/llama3-8b-8l-tp4-dp2.json at 8 and 16 layers on
// examples/fabric-8gpu-2ocs.json at τ ∈ {1 µs, 10 µs, 100 µs, 1 ms}, every default scheduler.
[[nodiscard]] FluxSweep paper_flux_sweep();

struct FluxSweepRow {
  int layers = 0;
  double tau = 0;
  std::string scheduler;
  fabric::SimMetrics m;
  bool has_solver = false;
  cosched::SolverReport solver;
  std::string failure;  // the scheduler could not run this case (its metrics are NaN)
};

// InputError (field "schedulers") for a name that is not registered.
void check_schedulers(const std::vector<std::string>& names);

// Every scheduler on one (layers, τ) case; `workload` is the scenario's at that layer count.
// Each scheduler's run is a stage of `progress`, and one unit of the stage around the call.
[[nodiscard]] std::vector<FluxSweepRow> run_flux_case(const FluxSweep& sweep,
                                                      const workload::Workload& workload,
                                                      int layers, double tau,
                                                      Progress& progress = no_progress());
// The printed block of one case: a row per scheduler and how Flux compares.
// What each column of flux_case_table means, printed once under the tables.
[[nodiscard]] std::string flux_case_legend();
[[nodiscard]] std::string flux_case_table(const FluxSweep& sweep,
                                          const std::vector<FluxSweepRow>& rows, int layers,
                                          double tau);
[[nodiscard]] std::string flux_sweep_csv(const std::vector<FluxSweepRow>& rows);
// The rows of a CSV written by flux_sweep_csv, as far as the figures need them (layers, τ,
// scheduler, iteration time, peak NIC buffer, failure): an InputError naming `file`, the line
// and the column for anything else. The layer counts and schedulers are in first-seen order.
struct FluxSweepCsv {
  std::vector<FluxSweepRow> rows;
  std::vector<int> layers;
  std::vector<std::string> schedulers;
};
[[nodiscard]] FluxSweepCsv read_flux_sweep_csv(std::string_view text, const std::string& file);
// The two figures of one layer count: {file name, SVG}.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> flux_sweep_plots(
    const FluxSweep& sweep, const std::vector<FluxSweepRow>& rows, int layers);

}  // namespace flux::experiments
