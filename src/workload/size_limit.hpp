#pragma once
// Refusing a workload that would be too large to build, from an estimate made before building it
// (the generators and importers hold every task in memory). The limit is kMaxGeneratedTasks
// (core/limits.hpp).
#include <string>

namespace flux::workload {

// The limit in force: kMaxGeneratedTasks unless lowered. The fuzz targets lower it, so that every
// input they accept is built in milliseconds under the sanitizers (a few bytes of ASTRA-sim text
// can ask for tens of millions of tasks, which is a valid workload but not a fuzzing case).
[[nodiscard]] double generated_task_limit();
void set_generated_task_limit(double tasks);

// Throws InputError(label, field, ...) when `estimated_tasks` exceeds the limit; the message gives
// the estimate, its approximate memory and `what_to_change`.
void check_generated_size(double estimated_tasks, const std::string& label,
                          const std::string& field, const std::string& what_to_change);

}  // namespace flux::workload
