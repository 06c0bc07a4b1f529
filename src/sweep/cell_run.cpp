#include "sweep/cell_run.hpp"

#include "fabric/sim_report.hpp"
#include "schedulers/registry.hpp"
#include "schedulers/run_summary.hpp"
#include "workload/dag_builder.hpp"
#include "workload/workload_io.hpp"

namespace flux::sweep {

CellFiles run_cell(const Sweep& sweep, const SweepCell& cell) {
  const CellInputs in = inputs_of(cell);
  const std::string workload_label =
      in.scenario.is_null() ? sweep.workload_file : sweep.scenario_label;
  const workload::Workload w =
      in.scenario.is_null() ? workload::read_workload(sweep.workload_file)
                            : build_workload(cell_scenario(in.scenario, sweep.scenario_label));
  const fabric::Fabric f = cell_fabric(in.fabric, sweep.file);
  const schedulers::WorkloadScheduler& s = schedulers::workload_scheduler(in.scheduler);
  const schedulers::SchedulerResult run =
      run_scheduler(s, {w, f, workload_label}, cell_options(in));
  CellFiles files;
  files.emplace_back("summary.json",
                     run_summary(run, w, f, workload_label, sweep.file).dump(1) + "\n");
  fabric::SimOutputWriter writer(w, f, run.sim);  // the NIC-buffer curves once for all files
  for (const std::string& name : sweep.outputs) files.emplace_back(name, writer.text(name));
  return files;
}

}  // namespace flux::sweep
