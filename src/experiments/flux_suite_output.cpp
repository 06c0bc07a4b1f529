// The suite's table, CSV and figures (flux_suite.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/units.hpp"
#include "experiments/flux_suite.hpp"
#include "report/csv.hpp"
#include "report/csv_reader.hpp"
#include "report/svg_plot.hpp"

namespace flux::experiments {
namespace {

constexpr const char* kRowFormat =
    "{:<18} {:>5} {:>4} {:>7} {:>11} {:>11} {:>8} {:>9} {:>8} {:>13} {:>9} {:>9}  {}\n";

// "port energy gpu 3 [...]: ..." -> "port energy": the family that binds, for the printed table.
std::string bound_family(const std::string& source) {
  for (const char* family : {"critical path", "port energy", "set-up pigeonhole", "milp"})
    if (source.rfind(family, 0) == 0) return family;
  return source;
}

std::string ratio(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) && b > 0 ? fmt::format("{:.3f}x", a / b) : "n/a";
}

double ratio_value(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) && b > 0 ? a / b : NAN;
}

// The shortest text that reads back exactly: a redrawn figure is the same bytes.
std::string exact(double v) {
  return fmt::format("{}", v);
}

}  // namespace

std::string flux_suite_table_header() {
  return fmt::format(kRowFormat, "case", "GPUs", "OCS", "tau", "flux iter", "flux bound", "gap",
                     "status", "solve", "best periodic", "per/flux", "flux/ideal", "bound source");
}

std::string flux_suite_table_row(const FluxSuiteRow& r) {
  if (!r.failure.empty())
    return fmt::format("{:<18} {:>5} {:>4} {:>7} flux did not run: {}\n", r.label, r.gpus, r.ocs,
                       format_time(r.tau), r.failure);
  // A rounding-level negative gap (the replay a hair under the bound) prints as 0.
  return fmt::format(
      kRowFormat, r.label, r.gpus, r.ocs, format_time(r.tau), format_time(r.flux_iteration),
      format_time(r.bound), fmt::format("{:.2f}%", 100 * std::max(r.gap, 0.0)), r.status,
      fmt::format("{:.1f}s", r.solve_seconds), r.best_periodic.empty() ? "none" : r.best_periodic,
      ratio(r.best_periodic_iteration, r.flux_iteration),
      ratio(r.flux_iteration, r.ideal_iteration), bound_family(r.bound_source));
}

std::string flux_suite_legend() {
  return "\ncolumns: flux iter = Flux's simulated iteration time; flux bound = the solver's "
         "proven lower bound\n"
         "  on the optimal iteration; gap = (iter - bound) / iter; status = optimal when the "
         "bound proves the\n"
         "  schedule optimal (within the MILP gap tolerance), else feasible; solve = the solver's "
         "wall time;\n"
         "  best periodic = the fastest of rotornet, rotornet-vlb and bvn-periodic; per/flux = "
         "its iteration\n"
         "  over Flux's (above 1: Flux is faster); flux/ideal = Flux's iteration over the ideal "
         "electrical\n"
         "  fabric's; bound source = the bound family that binds (milp, critical path, port "
         "energy, set-up\n"
         "  pigeonhole; the CSV has the details). Definitions: docs/models.md.\n";
}

std::string flux_suite_csv(const std::vector<FluxSuiteRow>& rows) {
  std::vector<std::string> names;  // every scheduler that appears, in first-seen order
  for (const FluxSuiteRow& r : rows)
    for (const auto& [name, _] : r.iterations)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::string out = report::csv_record(
      "case", "gpus", "layers", "ocs", "tau_s", "flux_iteration_s", "flux_bound_s", "gap", "status",
      "solve_s", "best_periodic", "best_periodic_iteration_s", "best_periodic_over_flux",
      "ideal_iteration_s", "flux_over_ideal", "bound_source", "failure");
  out.pop_back();  // the per-scheduler columns follow
  for (const std::string& n : names) {
    out += ',';
    report::append_csv_field(out, fmt::format("{}_iteration_s", n));
  }
  out += "\n";
  for (const FluxSuiteRow& r : rows) {
    std::string line = report::csv_record(
        r.label, r.gpus, r.layers, r.ocs, exact(r.tau), exact(r.flux_iteration), exact(r.bound),
        fmt::format("{:.6g}", r.gap), r.status, fmt::format("{:.3f}", r.solve_seconds),
        r.best_periodic, exact(r.best_periodic_iteration),
        exact(ratio_value(r.best_periodic_iteration, r.flux_iteration)), exact(r.ideal_iteration),
        exact(ratio_value(r.flux_iteration, r.ideal_iteration)), r.bound_source, r.failure);
    line.pop_back();
    for (const std::string& n : names) {
      const auto it = std::find_if(r.iterations.begin(), r.iterations.end(),
                                   [&](const auto& p) { return p.first == n; });
      line += fmt::format(",{}", exact(it == r.iterations.end() ? NAN : it->second));
    }
    out += line;
    out += '\n';
  }
  return out;
}

std::vector<FluxSuiteRow> read_flux_suite_csv(std::string_view text, const std::string& file) {
  const report::CsvTable t(text, file);
  const std::size_t label = t.column("case"), ocs = t.column("ocs"), tau = t.column("tau_s"),
                    flux = t.column("flux_iteration_s"),
                    periodic = t.column("best_periodic_iteration_s"), failure = t.column("failure");
  if (t.rows() == 0) throw InputError(file, "line 2", "at least one row after the header");
  std::vector<FluxSuiteRow> rows;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    FluxSuiteRow row;
    row.label = t.text(r, label);
    if (row.label.empty())
      throw InputError(file, fmt::format("line {}, column case", t.line(r)),
                       "a case label, found \"\"");
    row.ocs = static_cast<int>(t.integer(r, ocs, 1, 64));
    row.tau = t.number(r, tau);
    row.failure = t.text(r, failure);
    // A cell Flux did not run, or without a periodic result, stays off the figure (nan).
    row.flux_iteration = row.failure.empty() ? t.number(r, flux) : NAN;
    row.best_periodic_iteration = t.text(r, periodic) == "nan" ? NAN : t.number(r, periodic);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::pair<std::string, std::string>> flux_suite_plots(
    const std::vector<FluxSuiteRow>& rows) {
  std::vector<int> ocs_counts;
  std::vector<std::string> labels;
  for (const FluxSuiteRow& r : rows) {
    if (std::find(ocs_counts.begin(), ocs_counts.end(), r.ocs) == ocs_counts.end())
      ocs_counts.push_back(r.ocs);
    if (std::find(labels.begin(), labels.end(), r.label) == labels.end()) labels.push_back(r.label);
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (int ocs : ocs_counts) {
    report::LinePlot p;
    p.title = fmt::format("Flux against the best periodic scheduler, {} OCS", ocs);
    p.x = {"reconfiguration delay τ", true, {}, {}, false, report::AxisUnit::seconds};
    p.y = {"best periodic iteration / Flux iteration", true, {}, {}, false, report::AxisUnit::none};
    for (const std::string& label : labels) {
      report::PlotSeries s{label, {}, {}, false, true, ""};
      for (const FluxSuiteRow& r : rows)
        if (r.label == label && r.ocs == ocs) {
          s.x.push_back(r.tau);
          s.y.push_back(ratio_value(r.best_periodic_iteration, r.flux_iteration));
        }
      p.series.push_back(std::move(s));
    }
    out.emplace_back(fmt::format("periodic_over_flux_{}ocs.svg", ocs), render_svg(p));
  }
  return out;
}

}  // namespace flux::experiments
