#include "experiments/main_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "matrix_schedulers/registry.hpp"

namespace flux::experiments {

BenchGrid main_job_grid(std::uint64_t seed, bool all) {
  BenchGrid g;
  for (const BenchWorkload& w : paper_workloads(true))
    if (w.name == "synthetic" || (w.name == "gpt32" && g.workloads.size() == 1))
      g.workloads.push_back(w);  // the first gpt32 is the clean one
  g.switches = {4, 16};
  g.trials = 1;
  g.seed = seed;
  if (all) {
    g.algorithms = default_bench_algorithms();
  } else {
    for (const char* name : {"spectra", "spectra-ref", "baseline"})
      if (matrix_schedulers::find_matrix_algorithm(name)) g.algorithms.emplace_back(name);
  }
  return g;
}

// One row per (workload, s, delta): LB, then makespan and makespan/LB per algorithm, then
// baseline/spectra when both ran.
std::string main_job_legend() {
  return "columns: s = parallel OCSes; delta = reconfiguration delay (normalised time); LB = the "
         "larger\n"
         "  makespan lower bound (docs/models.md); per algorithm its makespan (mean over "
         "trials), then\n"
         "  /LB = makespan / LB; baseline/spectra = the paper baseline's makespan over "
         "spectra's.\n";
}

std::string main_job_table(const BenchGrid& g, const BenchResult& r) {
  std::string out;
  using Key = std::tuple<std::string, int, double>;
  std::map<Key, std::map<std::string, const BenchCell*>> rows;
  for (const BenchCell& c : r.cells) rows[{c.workload, c.switches, c.delta}][c.algorithm] = &c;
  std::vector<Key> order;  // workloads in grid order, then s, then delta
  for (const BenchWorkload& w : g.workloads)
    for (const auto& [key, _] : rows)
      if (std::get<0>(key) == w.name) order.push_back(key);
  const bool ratio = std::ranges::count(g.algorithms, std::string("baseline")) > 0 &&
                     std::ranges::count(g.algorithms, std::string("spectra")) > 0;
  out += fmt::format("{:<10} {:>3} {:>6} {:>8}", "workload", "s", "delta", "LB");
  for (const std::string& a : g.algorithms) out += fmt::format(" {:>16} {:>6}", a, "/LB");
  out += fmt::format("{}\n", ratio ? "  baseline/spectra" : "");
  for (const Key& key : order) {
    const auto& cells = rows[key];
    const BenchCell& any = *cells.begin()->second;
    out += fmt::format("{:<10} {:>3} {:>6} {:>8.4f}", any.workload, any.switches, any.delta,
                       any.lower_bound);
    for (const std::string& a : g.algorithms)
      out +=
          fmt::format(" {:>16.4f} {:>6.3f}", cells.at(a)->makespan, cells.at(a)->makespan_over_lb);
    if (ratio) out += fmt::format("  {:>16.3f}", cells.at("spectra")->baseline_ratio);
    out += fmt::format("\n");
  }
  if (ratio)
    for (const BenchWorkload& w : g.workloads)
      out += fmt::format("mean baseline/spectra on {}: {:.3f}\n", w.name,
                         average_baseline_ratio(r, w.name, "spectra"));
  return out;
}

}  // namespace flux::experiments
