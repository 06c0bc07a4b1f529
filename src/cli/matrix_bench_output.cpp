#include "cli/matrix_bench_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "report/svg_plot.hpp"

namespace flux::cli {
namespace {

std::vector<const BenchCell*> cells_of(const BenchResult& r, const std::string& workload, int s,
                                       double x) {
  std::vector<const BenchCell*> out;
  for (const BenchCell& c : r.cells)
    if (c.workload == workload && c.switches == s && c.x == x) out.push_back(&c);
  return out;
}

std::set<double> xs_of(const BenchResult& r, const std::string& workload) {
  std::set<double> xs;
  for (const BenchCell& c : r.cells)
    if (c.workload == workload) xs.insert(c.x);
  return xs;
}

std::string x_name(const BenchWorkload& w) {
  return w.sweep.empty() ? "delta" : w.sweep;
}

void table_rows(std::string& out, const BenchGrid& grid, const BenchResult& r,
                const BenchWorkload& w) {
  out += fmt::format("{:>3} {:>11} {:>8}", "s", x_name(w), "LB");
  for (const std::string& a : grid.algorithms) out += fmt::format(" {:>10.10}", a);
  out += "\n";
  for (int s : grid.switches)
    for (double x : xs_of(r, w.name)) {
      const auto cells = cells_of(r, w.name, s, x);
      if (cells.empty()) continue;
      out += fmt::format("{:>3} {:>11.4g} {:>8.4f}", s, x, cells.front()->lower_bound);
      for (const std::string& a : grid.algorithms) {
        const auto it = std::find_if(cells.begin(), cells.end(),
                                     [&](const BenchCell* c) { return c->algorithm == a; });
        out += it == cells.end() ? fmt::format(" {:>10}", "-")
                                 : fmt::format(" {:>10.4f}", (*it)->makespan);
      }
      out += "\n";
    }
}

void ratio_summary(std::string& out, const BenchGrid& grid, const BenchResult& r,
                   const BenchWorkload& w) {
  const std::vector<int> paper = {4, 16};
  for (const char* spectra : {"spectra-ref", "spectra"}) {
    if (std::find(grid.algorithms.begin(), grid.algorithms.end(), spectra) == grid.algorithms.end())
      continue;
    const double all = average_baseline_ratio(r, w.name, spectra);
    const double avg = average_baseline_ratio(r, w.name, spectra, paper);
    out += fmt::format("  {}/{}: {:.3f} averaged over s in {{4,16}}, {:.3f} over all cells\n",
                       grid.baseline, spectra, avg, all);
  }
}

}  // namespace

std::string bench_table(const BenchGrid& grid, const BenchResult& r) {
  std::string out;
  for (const BenchWorkload& w : grid.workloads) {
    out += fmt::format("\n== {} ({} trials; mean makespan, normalised units) ==\n", w.name,
                       grid.trials);
    table_rows(out, grid, r, w);
    ratio_summary(out, grid, r, w);
  }
  out += fmt::format("\n{} schedules verified, {} failures\n", r.schedules, r.failures.size());
  return out;
}

std::string bench_csv(const BenchResult& r) {
  std::string out =
      "workload,x,switches,delta,algorithm,trials,makespan,lower_bound,makespan_over_lb,"
      "baseline_ratio,seconds,permutations\n";
  for (const BenchCell& c : r.cells)
    out += fmt::format("{},{},{},{},{},{},{:.9g},{:.9g},{:.6f},{:.6f},{:.6g},{:.2f}\n", c.workload,
                       c.x, c.switches, c.delta, c.algorithm, c.trials, c.makespan, c.lower_bound,
                       c.makespan_over_lb, c.baseline_ratio, c.seconds, c.permutations);
  return out;
}

std::string bench_svg(const BenchGrid& grid, const BenchResult& r, const BenchWorkload& w,
                      int switches) {
  LinePlot plot;
  plot.title = fmt::format("{}, s = {}{}", w.name, switches,
                           w.sweep.empty() ? "" : fmt::format(", delta = {}", grid.sweep_delta));
  plot.x.label = w.sweep.empty() ? "reconfiguration delay delta (busiest port's load = 1)"
                                 : (w.sweep == "flows" ? "flows per port" : "small-flow share");
  plot.y.label = "makespan (normalised)";
  plot.y.from_zero = true;
  PlotSeries lb;
  lb.name = "LB";
  lb.dashed = true;
  lb.color = "#000000";
  for (const std::string& a : grid.algorithms) {
    PlotSeries s;
    s.name = a;
    for (double x : xs_of(r, w.name))
      for (const BenchCell* c : cells_of(r, w.name, switches, x))
        if (c->algorithm == a) s.x.push_back(x), s.y.push_back(c->makespan);
    plot.series.push_back(std::move(s));
  }
  for (double x : xs_of(r, w.name)) {
    const auto cells = cells_of(r, w.name, switches, x);
    if (!cells.empty()) lb.x.push_back(x), lb.y.push_back(cells.front()->lower_bound);
  }
  plot.series.push_back(std::move(lb));
  return render_svg(plot);
}

}  // namespace flux::cli
