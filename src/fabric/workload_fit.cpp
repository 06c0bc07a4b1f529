#include "fabric/workload_fit.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "fabric/sim_time.hpp"
#include "workload/validate.hpp"

namespace flux::fabric {

namespace {

// Running every task one after the other, each send after a reconfiguration, is slower than any
// schedule the simulator produces, except the periodic ones, whose waits for a slot are covered
// by the factor 64 of headroom. Below this serial bound no picosecond clock value overflows.
void check_clock_range(const workload::Workload& w, const Fabric& f,
                       const std::string& workload_file) {
  constexpr double kHorizon = static_cast<double>(kNever) / kPsPerSecond / 64;  // ~40 hours
  double serial = f.reconfig_delay, longest = -1.0;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const workload::Task& t = w.tasks[i];
    const double d = t.kind == workload::TaskKind::send
                         ? f.latency + t.bytes / f.link_rate + f.reconfig_delay
                         : t.duration;
    serial += d;
    if (d > longest) longest = d, worst = i;
  }
  if (!(serial <= kHorizon))  // also catches NaN and inf
    throw InputError(
        workload_file, fmt::format("/tasks/{}", worst),
        fmt::format("an iteration within the simulator's clock range: run one after another, the "
                    "tasks take {:.3g} s (at most {:.3g} s); {} alone takes {:.3g} s on this "
                    "fabric",
                    serial, kHorizon, describe_task(w, static_cast<int>(worst)), longest));
}

}  // namespace

void check_gpu_count(int gpus, const Fabric& f, const std::string& file, const std::string& field) {
  if (gpus != f.gpus)
    throw InputError(file, field, fmt::format("the fabric's GPU count ({}), got {}", f.gpus, gpus));
}

void check_workload_fits(const workload::Workload& w, const Fabric& f,
                         const std::string& workload_file) {
  check_gpu_count(w.gpus, f, workload_file);
  validate_workload(w, workload_file);
  check_clock_range(w, f, workload_file);
}

std::string describe_task(const workload::Workload& w, int task) {
  const workload::Task& t = w.tasks[static_cast<std::size_t>(task)];
  return t.name.empty() ? fmt::format("task {}", t.id) : fmt::format("task {} ({})", t.id, t.name);
}

}  // namespace flux::fabric
