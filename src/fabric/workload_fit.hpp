#pragma once
// A workload that can run on a fabric: the same GPU count and a valid DAG (validate_workload).
// Throws InputError naming the workload file, the field and the offending task. O(tasks + edges).
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "workload/validate.hpp"
#include "workload/workload.hpp"

namespace flux::fabric {

void check_workload_fits(const workload::Workload& w, const Fabric& f,
                         const std::string& workload_file);

// Its first rule alone, for a source whose GPU count is known before its tasks are built (a
// scenario's world size, `field` its pointer): a mismatch is refused before minutes of building.
void check_gpu_count(int gpus, const Fabric& f, const std::string& file,
                     const std::string& field = "/gpus");

// "task 12 (L0.fwd.attn)" for messages that name a task by its file id.
[[nodiscard]] std::string describe_task(const workload::Workload& w, int task);

}  // namespace flux::fabric
