#include "experiments/matrix_bench_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "report/csv.hpp"
#include "report/csv_reader.hpp"
#include "report/svg_plot.hpp"

namespace flux::experiments {
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

int width(const std::string& column) {
  return std::max(8, static_cast<int>(column.size()));
}

std::string x_name(const BenchWorkload& w) {
  return w.sweep.empty() ? "delta" : w.sweep;
}

const BenchCell* find_cell(const std::vector<const BenchCell*>& cells, const std::string& a) {
  for (const BenchCell* c : cells)
    if (c->algorithm == a) return c;
  return nullptr;
}

// One value per algorithm column ("-" when the algorithm has no cell).
template <class Value>
std::string columns(const BenchGrid& grid, Value value) {
  std::string out;
  for (const std::string& a : grid.algorithms) {
    const std::optional<double> v = value(a);
    out += v ? fmt::format(" {:>{}.4f}", *v, width(a)) : fmt::format(" {:>{}}", "-", width(a));
  }
  return out;
}

// The Spectra variants present in the grid: each gets a makespan / best-bound column per row.
std::vector<std::string> ratio_columns(const BenchGrid& grid) {
  std::vector<std::string> out;
  for (const char* a : {"spectra", "spectra-ref"})
    if (std::find(grid.algorithms.begin(), grid.algorithms.end(), a) != grid.algorithms.end())
      out.push_back(a);
  return out;
}

void table_rows(std::string& out, const BenchGrid& grid, const BenchResult& r,
                const BenchWorkload& w) {
  const std::vector<std::string> ratios = ratio_columns(grid);
  out += fmt::format("{:>3} {:>11} {:>8} {:>8} {:>8} {:>8}", "s", x_name(w), "LB1", "LB2", "LB3",
                     "LB4");
  for (const std::string& a : grid.algorithms) out += fmt::format(" {:>{}}", a, width(a));
  for (const std::string& a : ratios) out += fmt::format(" {:>{}}", a + "/LB", width(a + "/LB"));
  out += "\n";
  for (int s : grid.switches)
    for (double x : xs_of(r, w.name)) {
      const auto cells = cells_of(r, w.name, s, x);
      if (cells.empty()) continue;
      const BenchCell& any = *cells.front();
      out += fmt::format("{:>3} {:>11.4g} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.4f}", s, x, any.lb1,
                         any.lb2, any.lb3, any.lb4);
      out += columns(grid, [&](const std::string& a) -> std::optional<double> {
        const BenchCell* c = find_cell(cells, a);
        return c ? std::optional(c->makespan) : std::nullopt;
      });
      for (const std::string& a : ratios) {
        const BenchCell* c = find_cell(cells, a);
        out += c ? fmt::format(" {:>{}.4f}", c->makespan_over_lb, width(a + "/LB"))
                 : fmt::format(" {:>{}}", "-", width(a + "/LB"));
      }
      out += "\n";
    }
  // Means over every cell of the workload: quality against the bound, and speed.
  const auto mean_of = [&](const std::string& a, double BenchCell::*field, double scale) {
    double sum = 0.0;
    int n = 0;
    for (const BenchCell& c : r.cells)
      if (c.workload == w.name && c.algorithm == a) sum += c.*field, ++n;
    return n ? std::optional(scale * sum / n) : std::nullopt;
  };
  out += fmt::format("{:>24}", "mean makespan/LB");
  out +=
      columns(grid,
              [&](const std::string& a) { return mean_of(a, &BenchCell::makespan_over_lb, 1.0); }) +
      "\n";
  out += fmt::format("{:>24}", "mean ms per run");
  out += columns(grid, [&](const std::string& a) { return mean_of(a, &BenchCell::seconds, 1e3); }) +
         "\n";
}

// Mean over the s in {4, 16} cells of mean-makespan(a) / mean-makespan(b); NaN if none.
double cell_ratio(const BenchResult& r, const std::string& workload, const std::string& a,
                  const std::string& b) {
  double sum = 0.0;
  int count = 0;
  for (const BenchCell& ca : r.cells) {
    if (ca.workload != workload || ca.algorithm != a || (ca.switches != 4 && ca.switches != 16))
      continue;
    for (const BenchCell& cb : r.cells)
      if (cb.workload == workload && cb.algorithm == b && cb.switches == ca.switches &&
          cb.x == ca.x && cb.makespan > 0)
        sum += ca.makespan / cb.makespan, ++count;
  }
  return count ? sum / count : NAN;
}

bool has(const BenchGrid& grid, const std::string& a) {
  return std::find(grid.algorithms.begin(), grid.algorithms.end(), a) != grid.algorithms.end();
}

void ratio_summary(std::string& out, const BenchGrid& grid, const BenchResult& r,
                   const BenchWorkload& w) {
  const std::vector<int> paper = {4, 16};
  for (const char* spectra : {"spectra-ref", "spectra"}) {
    if (!has(grid, spectra)) continue;
    const double all = average_baseline_ratio(r, w.name, spectra);
    const double avg = average_baseline_ratio(r, w.name, spectra, paper);
    out += fmt::format(
        "  {}/{}: {:.3f} mean over the s in {{4,16}} cells (the paper's average), {:.3f} over all "
        "cells\n",
        grid.baseline, spectra, avg, all);
  }
  if (has(grid, "baseline-eclipse") && has(grid, "spectra-ref"))
    out += fmt::format(
        "  baseline-eclipse/spectra-ref: {:.3f} (s in {{4,16}}, ratio of mean makespans)\n",
        cell_ratio(r, w.name, "baseline-eclipse", "spectra-ref"));
}

template <class T>
void add_once(std::vector<T>& list, const T& v) {
  if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

// The paper's workload of that name (its x axis); an InputError at that record otherwise.
const BenchWorkload& add_workload(BenchGrid& grid, const report::CsvTable& t, std::size_t row,
                                  std::size_t col) {
  const std::string& name = t.text(row, col);
  for (const BenchWorkload& w : grid.workloads)
    if (w.name == name) return w;
  std::string known;
  for (const BenchWorkload& w : paper_workloads(false)) {
    if (w.name == name) return grid.workloads.emplace_back(w);
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw InputError(t.file(), fmt::format("line {}, column workload", t.line(row)),
                   fmt::format("a workload among {}, found \"{}\"", known, name));
}

BenchCell read_cell(const report::CsvTable& t, std::size_t r) {
  BenchCell c;
  c.workload = t.text(r, t.column("workload"));
  c.x = t.number(r, t.column("x"));
  c.switches = static_cast<int>(t.integer(r, t.column("switches"), 1, 1024));
  c.delta = t.number(r, t.column("delta"));
  c.algorithm = t.text(r, t.column("algorithm"));
  c.trials = static_cast<int>(t.integer(r, t.column("trials"), 1, 1000));
  c.makespan = t.number(r, t.column("makespan"));
  c.lower_bound = t.number(r, t.column("lower_bound"));
  // The per-bound columns came later: a CSV without them reads as 0 there.
  for (auto [name, field] : {std::pair{"lb1", &BenchCell::lb1}, std::pair{"lb2", &BenchCell::lb2},
                             std::pair{"lb3", &BenchCell::lb3}, std::pair{"lb4", &BenchCell::lb4}})
    if (t.has_column(name)) c.*field = t.number(r, t.column(name));
  c.makespan_over_lb = t.number(r, t.column("makespan_over_lb"));
  c.baseline_ratio = t.number(r, t.column("baseline_ratio"));
  c.seconds = t.number(r, t.column("seconds"));
  c.permutations = t.number(r, t.column("permutations"));
  return c;
}

}  // namespace

BenchCsv read_bench_csv(std::string_view text, const std::string& file) {
  const report::CsvTable t(text, file);
  for (const char* name :
       {"workload", "x", "switches", "delta", "algorithm", "trials", "makespan", "lower_bound",
        "makespan_over_lb", "baseline_ratio", "seconds", "permutations"})
    (void)t.column(name);  // every column up front: the first missing one is named
  if (t.rows() == 0) throw InputError(file, "line 2", "at least one row after the header");
  BenchCsv out;
  out.grid.switches.clear();
  for (std::size_t r = 0; r < t.rows(); ++r) {
    BenchCell c = read_cell(t, r);
    if (c.algorithm.empty())
      throw InputError(file, fmt::format("line {}, column algorithm", t.line(r)),
                       "an algorithm name, found \"\"");
    if (!add_workload(out.grid, t, r, t.column("workload")).sweep.empty())
      out.grid.sweep_delta = c.delta;
    add_once(out.grid.switches, c.switches);
    add_once(out.grid.algorithms, c.algorithm);
    out.grid.trials = c.trials;
    out.result.cells.push_back(std::move(c));
  }
  return out;
}

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
  std::string out = report::csv_record(
      "workload", "x", "switches", "delta", "algorithm", "trials", "makespan", "lower_bound", "lb1",
      "lb2", "lb3", "lb4", "makespan_over_lb", "baseline_ratio", "seconds", "permutations");
  for (const BenchCell& c : r.cells)
    report::append_csv_record(
        out, c.workload, c.x, c.switches, c.delta, c.algorithm, c.trials,
        fmt::format("{:.9g}", c.makespan), fmt::format("{:.9g}", c.lower_bound),
        fmt::format("{:.9g}", c.lb1), fmt::format("{:.9g}", c.lb2), fmt::format("{:.9g}", c.lb3),
        fmt::format("{:.9g}", c.lb4), fmt::format("{:.6f}", c.makespan_over_lb),
        fmt::format("{:.6f}", c.baseline_ratio), fmt::format("{:.6g}", c.seconds),
        fmt::format("{:.2f}", c.permutations));
  return out;
}

std::string bench_svg(const BenchGrid& grid, const BenchResult& r, const BenchWorkload& w,
                      int switches) {
  report::LinePlot plot;
  plot.title = fmt::format("{}, s = {}{}", w.name, switches,
                           w.sweep.empty() ? "" : fmt::format(", τ = {}", grid.sweep_delta));
  plot.x.label = w.sweep.empty() ? "reconfiguration delay τ (normalised: busiest port's load = 1)"
                                 : (w.sweep == "flows" ? "flows per port" : "small-flow share");
  plot.y.label = "makespan (normalised, log scale)";
  plot.y.log = true;  // BvN and Solstice are 10-100x the others: a linear axis hides the rest
  report::PlotSeries lb;
  lb.name = "LB";
  lb.dashed = true;
  lb.color = "#000000";
  for (const std::string& a : grid.algorithms) {
    report::PlotSeries s;
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

}  // namespace flux::experiments
