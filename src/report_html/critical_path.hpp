#pragma once
// The critical path of a simulated iteration, recovered from its trace (compute slices from
// timeline.json, messages from flows.csv) since the outputs hold no dependency edges: starting
// from the activity that ends last, each step goes to the activity that ended last, no later than
// the current one could start — the previous compute slice on the same GPU, or a message that
// arrived at it (for a message: whatever ended on its source GPU by the time it was ready). The
// simulator starts every task the moment its last dependency ends, so the walk follows the
// dependencies that held each task back. O(n log n).
#include <vector>

#include "report_html/inputs.hpp"

namespace flux::report_html {

struct CriticalPath {
  std::vector<std::size_t> compute;  // indices into RunData::compute
  std::vector<std::size_t> flows;    // indices into RunData::flows
};

[[nodiscard]] CriticalPath trace_critical_path(const std::vector<ComputeSlice>& compute,
                                               const std::vector<FlowRow>& flows, int gpus);

}  // namespace flux::report_html
