#include "schedulers/run_summary.hpp"

#include "fabric/sim_report.hpp"
#include "schedulers/flux_schedulers.hpp"

namespace flux::schedulers {

nlohmann::ordered_json run_summary(const SchedulerResult& run, const workload::Workload& w,
                                   const fabric::Fabric& f, const std::string& workload_file,
                                   const std::string& fabric_file) {
  fabric::RunContext ctx;
  ctx.workload_file = workload_file;
  ctx.fabric_file = fabric_file;
  ctx.scheduler = run.scheduler;
  ctx.options = options_json(run.options);
  nlohmann::ordered_json j = summary_document(run.sim.metrics, w, f, ctx);
  if (run.sim.schedule.used_circuits_only) j["scheduler"]["circuits"] = "used";
  if (run.solver) j["solver"] = solver_json(*run.solver);
  return j;
}

}  // namespace flux::schedulers
