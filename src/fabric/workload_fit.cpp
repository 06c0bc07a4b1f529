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

Successors successors(const Workload& w) {
  const std::size_t n = w.tasks.size();
  Successors s;
  s.begin.assign(n + 1, 0);
  for (const Task& t : w.tasks)
    for (int p : t.after) ++s.begin[static_cast<std::size_t>(p) + 1];
  for (std::size_t i = 0; i < n; ++i) s.begin[i + 1] += s.begin[i];
  s.list.resize(static_cast<std::size_t>(s.begin[n]));
  std::vector<int> fill(s.begin.begin(), s.begin.end() - 1);
  for (std::size_t t = 0; t < n; ++t)
    for (int p : w.tasks[t].after)
      s.list[static_cast<std::size_t>(fill[p]++)] = static_cast<int>(t);
  return s;
}

std::string describe_task(const Workload& w, int task) {
  const Task& t = w.tasks[static_cast<std::size_t>(task)];
  return t.name.empty() ? fmt::format("task {}", t.id) : fmt::format("task {} ({})", t.id, t.name);
}

}  // namespace flux
