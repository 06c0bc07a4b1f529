// `flux workload generate|stats|demand|flows|import|export`: build a training iteration from a
// scenario, inspect it, turn it into demand matrices or SimAI-style flows, import and export
// traces.
// Generation streams: every output is written while tasks are generated.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/progress_flag.hpp"
#include "cli/workload_source.hpp"
#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/units.hpp"
#include "workload/chakra_trace.hpp"
#include "workload/dag_builder.hpp"
#include "workload/traffic_views.hpp"
#include "workload/workload_importers.hpp"
#include "workload/workload_io.hpp"
#include "workload/workload_stats.hpp"

namespace flux::cli {
namespace {

struct GenerateOptions {
  std::string scenario, output, flows, demand;
  bool stats = false;
};

void generate(const GenerateOptions& o) {
  const workload::Scenario s = workload::read_scenario(o.scenario);
  std::vector<workload::TaskSink*> sinks;
  std::vector<std::unique_ptr<OutputFile>> files;
  std::vector<std::unique_ptr<workload::TaskSink>> owned;
  if (!o.output.empty()) {
    files.push_back(std::make_unique<OutputFile>(o.output));
    owned.push_back(std::make_unique<workload::WorkloadJsonWriter>(files.back()->stream()));
    sinks.push_back(owned.back().get());
  }
  if (!o.flows.empty()) {
    files.push_back(std::make_unique<OutputFile>(o.flows));
    owned.push_back(std::make_unique<workload::FlowsCsvWriter>(files.back()->stream()));
    sinks.push_back(owned.back().get());
  }
  workload::DemandSink demand;
  if (!o.demand.empty()) sinks.push_back(&demand);
  workload::StatsSink stats;
  sinks.push_back(&stats);
  workload::TeeSink tee(sinks);
  {
    ProgressStage stage(progress(), "generate and write tasks");  // 18.5 M tasks take a minute
    build_workload(s, tee);
    for (auto& f : files) f->commit();
    if (!o.demand.empty()) write_file_atomic(o.demand, demand_to_json(demand.demand()));
  }
  const workload::WorkloadStats& st = stats.stats();
  if (o.stats)
    fmt::print("{}", stats_to_text(st));
  else
    fmt::print("generated {} tasks ({} sends, {}) on {} GPUs\n", st.tasks, st.send_tasks,
               format_bytes(st.total_bytes), st.gpus);
}

void add_generate(CLI::App& wl) {
  auto o = std::make_shared<GenerateOptions>();
  auto* cmd = wl.add_subcommand("generate", "Build one training iteration from a scenario");
  cmd->add_option("--scenario", o->scenario, "flux.scenario/1 file")->required();
  cmd->add_option("-o,--output", o->output, "flux.workload/1 output");
  cmd->add_option("--flows", o->flows, "also write flows.csv");
  cmd->add_option("--demand", o->demand, "also write the aggregate flux.demand/1 (bytes)");
  cmd->add_flag("--stats", o->stats, "print the workload statistics");
  cmd->callback([o] {
    if (o->output.empty() && o->flows.empty() && o->demand.empty() && !o->stats)
      throw InputError("", "-o", "an output: -o, --flows, --demand or --stats");
    generate(*o);
  });
}

void add_scenario(CLI::App& wl) {
  auto path = std::make_shared<std::string>();
  auto* cmd = wl.add_subcommand("scenario", "Print a scenario's effective configuration");
  cmd->add_option("scenario", *path, "flux.scenario/1 file")->required();
  cmd->callback(
      [path] { fmt::print("{}", workload::scenario_to_json(workload::read_scenario(*path))); });
}

void add_stats(CLI::App& wl) {
  auto src = std::make_shared<WorkloadSource>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = wl.add_subcommand("stats", "Tasks, bytes per group and phase, compute critical path");
  src->add_to(*cmd, true);
  cmd->add_flag("--json", *json, "print flux.workload-stats/1 JSON");
  cmd->callback([src, json] {
    workload::StatsSink sink;
    {
      ProgressStage stage(progress(), "read tasks");
      src->stream(sink);
    }
    fmt::print("{}", *json ? stats_to_json(sink.stats()) : stats_to_text(sink.stats()));
  });
}

// One file per (phase, group) in `dir`, named <phase>-<group>.json.
void split_demand(const WorkloadSource& src, const std::string& dir) {
  workload::PhaseDemandSink sink;
  src.stream(sink);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "a directory that can be created: " + ec.message());
  for (const auto& [key, demand] : sink.demands()) {
    const std::string file = (std::filesystem::path(dir) / (key + ".json")).string();
    write_file_atomic(file, demand_to_json(demand));
    fmt::print("{}\n", file);
  }
}

void add_demand(CLI::App& wl) {
  auto src = std::make_shared<WorkloadSource>();
  auto filter = std::make_shared<workload::TrafficFilter>();
  auto out = std::make_shared<std::string>();
  auto split = std::make_shared<std::string>();
  auto* cmd = wl.add_subcommand("demand", "Demand matrix (bytes) of the iteration or of a phase");
  src->add_to(*cmd, true);
  cmd->add_option("--phase", filter->phase, "only sends with this phase tag (fwd, bwd, dp, ...)");
  cmd->add_option("--group", filter->group, "only sends with this group tag (tp, pp, dp, ep, cp)");
  auto* o = cmd->add_option("-o,--output", *out, "flux.demand/1 output");
  auto* d = cmd->add_option("--split", *split, "write one <phase>-<group>.json per phase into DIR");
  o->excludes(d);
  cmd->callback([src, filter, out, split] {
    if (!split->empty()) return split_demand(*src, *split);
    if (out->empty()) throw InputError("", "-o", "an output file (or --split DIR)");
    ProgressStage stage(progress(), "demand matrix");
    workload::DemandSink sink(*filter);
    src->stream(sink);
    if (sink.demand().matrix.max_entry() <= 0) {
      if (filter->phase.empty() && filter->group.empty())
        throw InputError(src->workload, "/tasks", "a workload with sends of non-zero size");
      throw InputError("", filter->phase.empty() ? "--group" : "--phase",
                       "a phase/group that carries traffic (see `flux workload stats`)");
    }
    write_file_atomic(*out, demand_to_json(sink.demand()));
  });
}

void add_flows(CLI::App& wl) {
  auto src = std::make_shared<WorkloadSource>();
  auto out = std::make_shared<std::string>();
  auto* cmd = wl.add_subcommand("flows", "SimAI-style flows.csv with steps and dependencies");
  src->add_to(*cmd, true);
  cmd->add_option("-o,--output", *out, "CSV output")->required();
  cmd->callback([src, out] {
    ProgressStage stage(progress(), "flows");
    OutputFile file(*out);
    workload::FlowsCsvWriter sink(file.stream());
    src->stream(sink);
    file.commit();
  });
}

void add_import(CLI::App& wl) {
  auto o = std::make_shared<ImportSource>();
  auto output = std::make_shared<std::string>();
  auto* cmd =
      wl.add_subcommand("import", "Import Chakra execution traces or an ASTRA-sim workload");
  o->add_to(*cmd);
  cmd->add_option("-o,--output", *output, "flux.workload/1 output")->required();
  cmd->callback([o, output] {
    if (!o->given()) throw InputError("", "--chakra", "one of --chakra PREFIX or --astra FILE");
    workload::ImportReport report;
    ProgressStage stage(progress(), "import");
    const workload::Workload w = o->load(report);
    OutputFile out(*output);
    write_workload_json(out.stream(), w);
    out.commit();
    stage.finish();
    fmt::print("{}imported {} tasks on {} GPUs\n", report.to_text(), w.tasks.size(), w.gpus);
  });
}

void add_export(CLI::App& wl) {
  auto src = std::make_shared<WorkloadSource>();
  auto prefix = std::make_shared<std::string>();
  auto* cmd = wl.add_subcommand("export", "Write a workload as Chakra execution traces");
  src->add_to(*cmd, true);
  cmd->add_option("--chakra", *prefix, "write <prefix>.<rank>.et, one trace per GPU")->required();
  cmd->callback([src, prefix] {
    const workload::Workload w = src->load();
    export_chakra(w, *prefix);
    fmt::print("exported {} tasks to {} on {} GPUs\n", w.tasks.size(),
               workload::chakra_rank_file(*prefix, 0), w.gpus);
  });
}

}  // namespace

void add_workload_commands(CLI::App& app) {
  auto* wl = app.add_subcommand("workload", "Training iterations as compute/communication DAGs");
  wl->require_subcommand(1);
  add_generate(*wl);
  add_scenario(*wl);
  add_stats(*wl);
  add_demand(*wl);
  add_flows(*wl);
  add_import(*wl);
  add_export(*wl);
}

}  // namespace flux::cli
