#include "workload/size_limit.hpp"

#include <atomic>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/limits.hpp"

namespace flux::workload {
namespace {

std::atomic<double> task_limit{kMaxGeneratedTasks};

}  // namespace

double generated_task_limit() {
  return task_limit.load(std::memory_order_relaxed);
}

void set_generated_task_limit(double tasks) {
  task_limit.store(tasks, std::memory_order_relaxed);
}

void check_generated_size(double estimated_tasks, const std::string& label,
                          const std::string& field, const std::string& what_to_change) {
  // A task costs about 100 bytes in memory (fields, dependency list, name) before it is written.
  constexpr double kBytesPerTask = 100;
  const double limit = generated_task_limit();
  if (estimated_tasks <= limit) return;
  throw InputError(
      label, field,
      fmt::format("a workload of at most {:.3g} tasks; this one would have about "
                  "{:.3g} tasks (~{:.3g} GB in memory); {}",
                  limit, estimated_tasks, estimated_tasks * kBytesPerTask / 1e9, what_to_change));
}

}  // namespace flux::workload
