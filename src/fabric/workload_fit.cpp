#include "fabric/workload_fit.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "workload/validate.hpp"

namespace flux {

void check_workload_fits(const Workload& w, const Fabric& f, const std::string& workload_file) {
  if (w.gpus != f.gpus)
    throw InputError(workload_file, "/gpus",
                     fmt::format("the fabric's GPU count ({}), got {}", f.gpus, w.gpus));
  validate_workload(w, workload_file);
}

std::string describe_task(const Workload& w, int task) {
  const Task& t = w.tasks[static_cast<std::size_t>(task)];
  return t.name.empty() ? fmt::format("task {}", t.id) : fmt::format("task {} ({})", t.id, t.name);
}

}  // namespace flux
