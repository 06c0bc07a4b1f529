#include "experiments/flux_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "core/units.hpp"
#include "experiments/paper_setup.hpp"
#include "fabric/fabric_io.hpp"
#include "workload/dag_builder.hpp"

namespace flux::experiments {
namespace {

// A path in the suite file is relative to the suite file's folder, so a suite can sit beside its
// scenarios and still be run from anywhere.
std::string resolve(const std::string& suite_file, const JsonNode& node, const char* what) {
  const std::filesystem::path p(node.string());
  const std::string path =
      p.is_absolute()
          ? p.string()
          : (std::filesystem::path(suite_file).parent_path() / p).lexically_normal().string();
  if (!std::filesystem::is_regular_file(path))
    node.fail(fmt::format("a {} file (not found: {})", what, path));
  return path;
}

template <class Parse>
auto read_list(const JsonNode& node, const Parse& parse) {
  if (!node.is_array() || node.size() == 0) node.fail("a non-empty array");
  std::vector<decltype(parse(node))> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(parse(node.at(i)));
  return out;
}

FluxSuiteCase read_case(const JsonNode& node, const std::string& file,
                        std::set<std::string>& labels) {
  if (!node.is_object()) node.fail("an object with \"label\", \"scenario\" and maybe \"layers\"");
  node.expect_keys({"label", "scenario", "layers"});
  FluxSuiteCase c;
  c.label = node["label"].string();
  if (c.label.empty() || c.label.size() > 64 ||
      c.label.find_first_of(",\"\n\r") != std::string::npos)
    node["label"].fail("a name of 1 to 64 characters without commas, quotes or line breaks");
  if (!labels.insert(c.label).second) node["label"].fail("a label no other case has");
  c.scenario_path = resolve(file, node["scenario"], "flux.scenario/1");
  if (const auto layers = node.find("layers"))
    c.layers = static_cast<int>(layers->integer(1, 100000));
  return c;
}

}  // namespace

std::string default_flux_suite_path() {
  return example_path("suites/flux-suite.json");
}

FluxSuite parse_flux_suite(const std::string& text, const std::string& file) {
  const JsonNode root = JsonNode::parse(text, file);
  if (!root.is_object()) root.fail("a flux.bench-suite/1 object");
  root.expect_keys({"format", "name", "fabric", "cases", "taus", "ocs"});
  root.expect_format("flux.bench-suite", 1);
  FluxSuite s;
  s.file = file;
  s.name = root["name"].string();
  s.fabric_path = resolve(file, root["fabric"], "flux.fabric/1");
  std::set<std::string> labels;
  s.cases = read_list(root["cases"], [&](const JsonNode& n) { return read_case(n, file, labels); });
  s.taus = read_list(root["taus"], [](const JsonNode& n) { return n.seconds(); });
  s.ocs =
      read_list(root["ocs"], [](const JsonNode& n) { return static_cast<int>(n.integer(1, 64)); });
  return s;
}

FluxSuite read_flux_suite(const std::string& file) {
  return parse_flux_suite(read_file(file), file);
}

const std::vector<std::string>& periodic_schedulers() {
  static const std::vector<std::string> names{"rotornet", "rotornet-vlb", "bvn-periodic"};
  return names;
}

std::vector<std::string> flux_suite_schedulers() {
  std::vector<std::string> names{"flux", "flux-greedy", "ideal"};
  names.insert(names.end(), periodic_schedulers().begin(), periodic_schedulers().end());
  return names;
}

workload::Scenario suite_case_scenario(const FluxSuiteCase& c) {
  workload::Scenario s = workload::read_scenario(c.scenario_path);
  if (c.layers) {
    s.model.num_layers = *c.layers;
    workload::validate_scenario(s, c.scenario_path);
  }
  return s;
}

FluxSuite select_cases(FluxSuite suite, const std::vector<std::string>& labels,
                       const std::string& flag) {
  for (const std::string& l : labels)
    if (std::none_of(suite.cases.begin(), suite.cases.end(),
                     [&](const FluxSuiteCase& c) { return c.label == l; }))
      throw InputError("", flag, fmt::format("case labels of {}, not {}", suite.file, l));
  std::erase_if(suite.cases, [&](const FluxSuiteCase& c) {
    return std::find(labels.begin(), labels.end(), c.label) == labels.end();
  });
  return suite;
}

void check_suite_inputs(const FluxSuite& suite) {
  (void)fabric::read_fabric(suite.fabric_path);
  for (const FluxSuiteCase& c : suite.cases) (void)suite_case_scenario(c);
}

FluxSuiteCaseRun prepare_suite_case(const FluxSuite& suite, const FluxSuiteCase& c,
                                    const FluxSweep& base) {
  FluxSuiteCaseRun run;
  run.sweep = base;
  run.sweep.scenario = suite_case_scenario(c);
  run.sweep.model_label = c.label;
  run.layers = run.sweep.scenario.model.num_layers;
  run.workload = workload::build_workload(run.sweep.scenario);
  run.sweep.fabric = fabric::read_fabric(suite.fabric_path);
  run.sweep.fabric.gpus = run.workload.gpus;  // the suite's ports and rates, the case's size
  run.sweep.fabric_label = suite.fabric_path;
  run.sweep.layers = {run.layers};
  run.sweep.taus = suite.taus;
  return run;
}

namespace {

const FluxSweepRow* find_row(const std::vector<FluxSweepRow>& rows, const std::string& name) {
  for (const FluxSweepRow& r : rows)
    if (r.scheduler == name && r.failure.empty() && std::isfinite(r.m.iteration_time)) return &r;
  return nullptr;
}

}  // namespace

FluxSuiteRow summarize_cell(const FluxSuiteCaseRun& run, int ocs, double tau,
                            const std::vector<FluxSweepRow>& rows) {
  FluxSuiteRow out;
  out.label = run.sweep.model_label;
  out.gpus = run.workload.gpus;
  out.layers = run.layers;
  out.ocs = ocs;
  out.tau = tau;
  out.flux_iteration = out.bound = out.gap = out.solve_seconds = NAN;
  out.best_periodic_iteration = out.ideal_iteration = NAN;
  for (const FluxSweepRow& r : rows)
    out.iterations.emplace_back(r.scheduler, r.failure.empty() ? r.m.iteration_time : NAN);
  if (const FluxSweepRow* ideal = find_row(rows, "ideal"))
    out.ideal_iteration = ideal->m.iteration_time;
  for (const std::string& name : periodic_schedulers())  // the first of equals wins (NaN: none yet)
    if (const FluxSweepRow* r = find_row(rows, name);
        r && !(r->m.iteration_time >= out.best_periodic_iteration)) {
      out.best_periodic = name;
      out.best_periodic_iteration = r->m.iteration_time;
    }
  const FluxSweepRow* flux = find_row(rows, "flux");
  if (!flux || !flux->has_solver) {
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [](const FluxSweepRow& r) { return r.scheduler == "flux"; });
    out.failure = it == rows.end() ? "flux was not run" : it->failure;
    return out;
  }
  out.flux_iteration = flux->m.iteration_time;
  out.bound = flux->solver.bound;
  out.gap = (out.flux_iteration - out.bound) / out.flux_iteration;
  out.status = to_string(flux->solver.status);
  out.solve_seconds = flux->solver.seconds;
  out.bound_source = flux->solver.bound_source;
  return out;
}

std::vector<FluxSuiteRow> run_suite_case(const FluxSuite& suite, const FluxSuiteCaseRun& run,
                                         Progress& progress,
                                         const std::function<void(const FluxSuiteRow&)>& on_cell) {
  std::vector<FluxSuiteRow> out;
  FluxSweep sweep = run.sweep;
  for (int ocs : suite.ocs) {
    sweep.fabric.ocs = ocs;
    for (double tau : suite.taus) {
      out.push_back(summarize_cell(run, ocs, tau,
                                   run_flux_case(sweep, run.workload, run.layers, tau, progress)));
      on_cell(out.back());
    }
  }
  return out;
}

}  // namespace flux::experiments
