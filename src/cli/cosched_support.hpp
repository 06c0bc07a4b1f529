#pragma once
// Shared by `flux cosched` and `flux bench flux`: the Flux scheduler options as command-line
// flags, running flux / flux-greedy on a workload, and the flux.summary/1 document of a run.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cosched/flux_scheduler.hpp"
#include "fabric/replay.hpp"
#include "fabric/sim_report.hpp"

namespace flux::cli {

struct FluxFlags {
  std::string time_limit = "60s";
  int threads = 1;
  double gap = 1e-4;
  int window = 40, monolithic_limit = 80;
  double search_share = 0.8;
  std::string closure_memory = "4GiB";
  std::uint64_t seed = 1;
  bool no_prune = false, no_symmetry = false, no_reuse = false, no_lookahead = false;
  bool aggregate = false, no_gap_fill = false;
  bool solver_log = false;

  void add_to(CLI::App& cmd);
  [[nodiscard]] FluxOptions options() const;  // throws InputError for bad values
};

// The Flux paper's workload: examples/llama3-8b-<layers>l-tp4-dp2.json with the layer count
// substituted (TP4 × DP2 on 8 A100); used by `flux bench flux` and bench/cosched_bench.cpp.
[[nodiscard]] Workload flux_paper_workload(int layers);

// Prints one block of `flux bench flux`: every workload scheduler on the paper's setup with
// `layers` layers at reconfiguration delay `tau`, Flux's MILP limited to `time_limit`, NICs
// staging `nic_window` of line rate per message.
void print_flux_paper_case(int layers, double tau, const std::string& time_limit,
                           const std::string& nic_window);

struct CoschedRun {
  std::string scheduler;  // flux | flux-greedy
  CircuitSchedule schedule;
  SimResult sim;  // replayed in the simulator
  bool has_solver = false;
  SolverReport solver;
};

// Schedules with `scheduler` ("flux" or "flux-greedy"), replays the schedule in the simulator and
// throws std::runtime_error if the simulator finds a violation (a bug, not bad input).
[[nodiscard]] CoschedRun run_cosched(const CoschedInstance& inst, const std::string& scheduler,
                                     const FluxOptions& options);
// Same for placements obtained elsewhere (a replayed external solution).
[[nodiscard]] CoschedRun replay_placements(const CoschedInstance& inst,
                                           const std::vector<Placement>& placements,
                                           const std::string& scheduler);

// `flux simulate --scheduler flux|flux-greedy`: the schedule's replay, like every other scheduler.
[[nodiscard]] bool is_cosched_scheduler(const std::string& name);
[[nodiscard]] SimResult simulate_cosched(const Workload& w, const Fabric& f,
                                         const std::string& scheduler, const FluxOptions& options,
                                         const std::string& workload_file);

// The simulator's flux.summary/1 of the run, with Flux's options and the solver block added.
[[nodiscard]] nlohmann::ordered_json summary_json(const CoschedInstance& inst,
                                                  const CoschedRun& run, const FluxOptions& options,
                                                  const std::string& workload_file,
                                                  const std::string& fabric_file);

}  // namespace flux::cli
