#pragma once
// Flux on several workloads: a suite lists scenarios (each optionally cut to a layer count), the
// reconfiguration delays τ and the OCS counts; every cell (case × OCS × τ) replays Flux, the ideal
// fabric and the periodic schedulers with the single-scenario experiment's machinery
// (flux_sweep.hpp), on the suite's fabric with the case's GPU count. One summary row per cell:
// how close Flux came to its lower bound, and how it compares with the best periodic scheduler
// and the ideal fabric. The suite is a flux.bench-suite/1 JSON file (docs/formats.md).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/progress.hpp"
#include "experiments/flux_sweep.hpp"
#include "workload/workload.hpp"

namespace flux::experiments {

struct FluxSuiteCase {
  std::string label;          // short name: table rows, figure legends
  std::string scenario_path;  // resolved against the suite file's folder
  std::optional<int> layers;  // absent: the scenario's own layer count
};

struct FluxSuite {
  std::string file;  // where it was read from, for provenance and messages
  std::string name;
  std::string fabric_path;  // its gpus, ocs and τ are replaced per cell
  std::vector<FluxSuiteCase> cases;
  std::vector<double> taus;  // seconds
  std::vector<int> ocs;
};

// examples/suites/flux-suite.json: the paper scenario at 8 and 16 layers, Mixtral, the
// pipeline-, data- and context-parallel examples and the 1,024-GPU GPT-3, at τ ∈ {1 µs, 10 µs,
// 100 µs, 1 ms} on 2 and 4 OCSes.
[[nodiscard]] std::string default_flux_suite_path();

// InputError naming `file` and the JSON pointer of the first bad field; the scenarios and the
// fabric are only checked to exist (they are read when the suite runs).
[[nodiscard]] FluxSuite parse_flux_suite(const std::string& text, const std::string& file);
[[nodiscard]] FluxSuite read_flux_suite(const std::string& file);

// flux, flux-greedy, ideal and the periodic schedulers, in table order.
[[nodiscard]] std::vector<std::string> flux_suite_schedulers();
// rotornet, rotornet-vlb, bvn-periodic: the ones "best periodic" chooses from.
[[nodiscard]] const std::vector<std::string>& periodic_schedulers();

// The case's scenario at its layer count, validated (InputError naming the scenario file).
[[nodiscard]] workload::Scenario suite_case_scenario(const FluxSuiteCase& c);
// The suite with only the cases whose labels are in `labels`, in the suite's order; InputError
// naming `flag` for a label the suite does not have.
[[nodiscard]] FluxSuite select_cases(FluxSuite suite, const std::vector<std::string>& labels,
                                     const std::string& flag);
// Every case's scenario and the fabric read and checked, before anything long runs.
void check_suite_inputs(const FluxSuite& suite);

// One case made ready to run: its scenario, workload and fabric (the suite's with the case's GPU
// count). `base` carries the schedulers, their options and the failure text.
struct FluxSuiteCaseRun {
  FluxSweep sweep;  // model_label = the case's label, fabric = the case's
  int layers = 0;
  workload::Workload workload;
};
[[nodiscard]] FluxSuiteCaseRun prepare_suite_case(const FluxSuite& suite, const FluxSuiteCase& c,
                                                  const FluxSweep& base);

struct FluxSuiteRow {
  std::string label;
  int gpus = 0, layers = 0, ocs = 0;
  double tau = 0;
  double flux_iteration = 0, bound = 0, gap = 0, solve_seconds = 0;
  std::string status, bound_source;
  std::string best_periodic;  // empty when no periodic scheduler ran
  double best_periodic_iteration = 0, ideal_iteration = 0;
  std::vector<std::pair<std::string, double>> iterations;  // every scheduler that ran, in order
  std::string failure;                                     // flux did not run: why
};

// The summary of one cell from its per-scheduler rows (run_flux_case).
[[nodiscard]] FluxSuiteRow summarize_cell(const FluxSuiteCaseRun& run, int ocs, double tau,
                                          const std::vector<FluxSweepRow>& rows);
// Every cell of one case: OCS counts outermost, then τ. `on_cell` sees each row as it completes.
[[nodiscard]] std::vector<FluxSuiteRow> run_suite_case(
    const FluxSuite& suite, const FluxSuiteCaseRun& run, Progress& progress,
    const std::function<void(const FluxSuiteRow&)>& on_cell = [](const FluxSuiteRow&) {});

// The printed table: a header (flux_suite_table_header) and a line per row.
[[nodiscard]] std::string flux_suite_table_header();
[[nodiscard]] std::string flux_suite_table_row(const FluxSuiteRow& row);
[[nodiscard]] std::string flux_suite_legend();
[[nodiscard]] std::string flux_suite_csv(const std::vector<FluxSuiteRow>& rows);
// The rows of a flux_suite_csv file as far as the figure needs them (case, OCS, τ, the Flux and
// best-periodic iterations); InputError naming `file`, the line and the column otherwise.
[[nodiscard]] std::vector<FluxSuiteRow> read_flux_suite_csv(std::string_view text,
                                                            const std::string& file);
// One figure per OCS count: best periodic / Flux iteration against τ, a line per case.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> flux_suite_plots(
    const std::vector<FluxSuiteRow>& rows);

}  // namespace flux::experiments
