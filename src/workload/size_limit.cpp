#include "workload/size_limit.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/limits.hpp"

namespace flux::workload {

void check_generated_size(double estimated_tasks, const std::string& label,
                          const std::string& field, const std::string& what_to_change) {
  // A task costs about 100 bytes in memory (fields, dependency list, name) before it is written.
  constexpr double kBytesPerTask = 100;
  if (estimated_tasks <= kMaxGeneratedTasks) return;
  throw InputError(label, field,
                   fmt::format("a workload of at most {:.3g} tasks; this one would have about "
                               "{:.3g} tasks (~{:.3g} GB in memory); {}",
                               kMaxGeneratedTasks, estimated_tasks,
                               estimated_tasks * kBytesPerTask / 1e9, what_to_change));
}

}  // namespace flux::workload
