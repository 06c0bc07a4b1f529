#pragma once
// Converting foreign workload descriptions into flux.workload/1 DAGs, and a Workload into Chakra.
//  * Chakra ET (chakra_import.cpp): one `<prefix>.<rank>.et` per rank, ranks 0.. until a file
//    is missing. COMP / METADATA / MEM nodes become compute tasks (duration_micros), COMM_SEND
//    nodes sends (attributes comm_dst, comm_size, comm_tag); each COMM_RECV is matched to the
//    send with the same (src, dst, tag) in order and stands for it in dependencies; COMM_COLL
//    nodes (comm_type all-reduce, all-gather, reduce-scatter, all-to-all; comm_size; pg_name)
//    are matched across the group's ranks by their order on that group and expanded into P2P
//    steps (collectives.hpp; reductions off the compute chain, trace durations do not include
//    them). ctrl_deps and data_deps become `after`; each rank's nodes are taken in trace order, so
//    its compute tasks form a chain in trace order.
//    export_chakra (chakra_export.cpp) writes the inverse, P2P only, plus flux_* attributes so
//    the round trip is lossless;
//    a task depending on a send that neither starts nor ends on its GPU cannot be expressed in a
//    per-rank trace and is an InputError.
//  * ASTRA-sim 1.0 / SimAI text workload (astra_import.cpp): see AstraImportOptions.
// Complexity: linear in the trace size.
#include <string>

#include "workload/scenario.hpp"
#include "workload/workload.hpp"

namespace flux {

struct ChakraImportOptions {
  // ASTRA-sim's --comm-group-configuration: {"<pg_name>": [ranks...]}; without it (or for a
  // node without pg_name) a COMM_COLL spans all ranks.
  std::string comm_groups;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
};

[[nodiscard]] Workload import_chakra(const std::string& prefix,
                                     const ChakraImportOptions& options = {});
void export_chakra(const Workload& w, const std::string& prefix);

struct AstraImportOptions {
  int gpus = 0;                     // 0: from the header's all_gpus
  double seconds_per_cycle = 1e-9;  // ASTRA-sim 2.x: cycles are ns
};

[[nodiscard]] Workload import_astra(const std::string& path,
                                    const AstraImportOptions& options = {});
[[nodiscard]] Workload parse_astra(const std::string& text, const std::string& label,
                                   const AstraImportOptions& options = {});

}  // namespace flux
