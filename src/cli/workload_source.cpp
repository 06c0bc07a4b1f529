#include "cli/workload_source.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"
#include "fabric/workload_fit.hpp"
#include "workload/chakra_ranks.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload_io.hpp"

namespace flux::cli {

std::pair<CLI::Option*, CLI::Option*> ImportSource::add_to(CLI::App& cmd) {
  auto* c = cmd.add_option("--chakra", chakra,
                           "prefix of <prefix>.<rank>.et[.gz] files, or a tar archive of them");
  auto* a = cmd.add_option("--astra", astra, "ASTRA-sim / SimAI text workload");
  c->excludes(a);
  cmd.add_option("--comm-groups", chakra_options.comm_groups,
                 "Chakra: process groups {\"<pg_name>\": [ranks]} (default: all ranks)")
      ->excludes(a);
  cmd.add_option("--gpu", gpu, "Chakra: GPU preset timing num_ops-only compute nodes")->excludes(a);
  cmd.add_option("--cpu-nodes", cpu_nodes,
                 "Chakra: is_cpu_op nodes are skipped (default) or timed on the compute stream")
      ->check(CLI::IsMember({"skip", "stream"}))
      ->excludes(a);
  cmd.add_option("--gpus", astra_options.gpus, "ASTRA: number of GPUs (default: all_gpus)")
      ->excludes(c);
  cmd.add_option("--cycle", astra_options.seconds_per_cycle,
                 "ASTRA: time of one compute cycle, e.g. 1ns (a bare number is seconds)")
      ->transform([](const std::string& text) {
        return fmt::format("{:.17g}", parse_time(text, "--cycle"));
      })
      ->default_str("1ns")
      ->type_name("TIME")
      ->excludes(c);
  cmd.add_option("--model-group", astra_options.model_group,
                 "ASTRA: model-parallel group size (default: model_parallel_NPU_group)")
      ->excludes(c);
  return {c, a};
}

workload::Workload ImportSource::load(workload::ImportReport& report) const {
  if (!astra.empty()) return import_astra(astra, astra_options, &report);
  workload::ChakraImportOptions options = chakra_options;
  if (!gpu.empty()) options.hardware = workload::gpu_hardware(gpu, "--gpu");
  options.cpu_nodes = cpu_nodes == "stream" ? workload::CpuNodes::stream : workload::CpuNodes::skip;
  return import_chakra(chakra, options, &report);
}

std::vector<std::string> ImportSource::input_files() const {
  if (!astra.empty()) return {astra};
  std::vector<std::string> files = workload::chakra_input_files(chakra);
  if (!chakra_options.comm_groups.empty()) files.push_back(chakra_options.comm_groups);
  return files;
}

void WorkloadSource::add_to(CLI::App& cmd, bool positional, bool importable) {
  // The `flux workload` commands also take the file as their positional argument.
  auto* w = cmd.add_option(positional ? "workload,--workload" : "--workload", workload,
                           "flux.workload/1 file");
  auto* s = cmd.add_option("--scenario", scenario,
                           "or a flux.scenario/1 file, generated on the fly (no workload file)");
  w->excludes(s);
  importable_ = importable;
  if (!importable) return;
  const auto [c, a] = imported.add_to(cmd);
  for (CLI::Option* o : {c, a}) o->excludes(w)->excludes(s);
}

void WorkloadSource::check() const {
  const int given = !workload.empty() + !scenario.empty() + imported.given();
  if (given == 1) return;
  throw InputError("", "--workload",
                   importable_ ? "exactly one of --workload FILE, --scenario FILE, --chakra PREFIX "
                                 "or --astra FILE"
                               : "exactly one of --workload FILE or --scenario FILE");
}

workload::Workload WorkloadSource::import() const {
  workload::ImportReport report;
  workload::Workload w = imported.load(report);
  for (const auto& [what, n] : report.counts) fmt::print("{}: {}\n", what, n);
  fmt::print("imported {} tasks on {} GPUs from {}\n", w.tasks.size(), w.gpus, imported.label());
  return w;
}

workload::Workload WorkloadSource::load() const {
  check();
  if (imported.given()) return import();
  return scenario.empty() ? workload::read_workload(workload)
                          : workload::build_workload(workload::read_scenario(scenario));
}

workload::Workload WorkloadSource::load_for(const fabric::Fabric& f) const {
  check();
  if (!scenario.empty()) {
    const workload::Scenario s = workload::read_scenario(scenario);
    fabric::check_gpu_count(s.parallel.world_size, f, scenario, "/parallelism/world_size");
    return workload::build_workload(s);
  }
  return load();
}

void WorkloadSource::stream(workload::TaskSink& sink) const {
  check();
  if (scenario.empty())
    replay_workload(load(), sink);
  else
    workload::build_workload(workload::read_scenario(scenario), sink);
}

std::vector<std::string> WorkloadSource::input_files(std::vector<std::string> more) const {
  std::vector<std::string> files =
      imported.given() ? imported.input_files() : std::vector<std::string>{label()};
  files.insert(files.end(), more.begin(), more.end());
  return files;
}

}  // namespace flux::cli
