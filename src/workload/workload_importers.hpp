#pragma once
// Converting foreign workload descriptions into flux.workload/1 DAGs, and a Workload into Chakra.
//  * Chakra ET (chakra_import.cpp): one trace per rank (chakra_ranks.hpp: `<prefix>.<rank>.et`,
//    gzip or a tar archive; ranks 0..N-1, none missing or twice). Each rank's nodes are replayed
//    in dependency order, resolved over the whole file (a node may depend on a later one), taking
//    the earliest ready node of the file first, so a file already in dependency order keeps it
//    and its compute tasks form a chain in that order. A control dependency on a node absent
//    from the file, or one closing a dependency cycle, is dropped and counted (PyTorch-converted
//    traces have both); an absent data dependency or a data cycle is an error. GPU COMP / METADATA
//    / MEM nodes become compute tasks (duration_micros; without a duration but with num_ops, the
//    roofline of `gpu`); COMM_SEND nodes sends (comm_dst, comm_size, comm_tag); each COMM_RECV is
//    matched to the send with the same (src, dst, tag) in order and stands for it in dependencies;
//    COMM_COLL nodes (comm_type all-reduce, reduce, all-gather, broadcast, all-to-all,
//    reduce-scatter, barrier; comm_size; pg_name) are matched across the group's ranks by their
//    order on that group and expanded into P2P steps (collectives.hpp; reductions off the compute
//    chain, trace durations do not include them). A missing comm_size is 0, as Chakra's reader has
//    it; a collective of 0 bytes is kept as a synchronisation of its group. Nodes with is_cpu_op
//    set (host-side operators) are skipped with their dependencies passed on, or timed on the
//    rank's compute stream. export_chakra (chakra_export.cpp) writes the inverse, P2P only, plus
//    flux_* attributes so the round trip is lossless; a task depending on a send that neither
//    starts nor ends on its GPU cannot be expressed in a per-rank trace and is an InputError.
//  * ASTRA-sim 1.0 / SimAI text workload (astra_import.cpp): see AstraImportOptions.
// Complexity: linear in the trace size.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "workload/scenario.hpp"
#include "workload/workload.hpp"

namespace flux::workload {

// What an import did beyond the one-to-one mapping, in the order first seen: counts of nodes
// skipped, dependencies dropped, defaults applied, and (ASTRA) what each layer became.
struct ImportReport {
  std::vector<std::pair<std::string, std::int64_t>> counts;
  std::vector<std::string> layers;
  void add(const std::string& what, std::int64_t n = 1);
  [[nodiscard]] std::int64_t count(const std::string& what) const;
  [[nodiscard]] std::string to_text() const;
};

enum class CpuNodes { skip, stream };

struct ChakraImportOptions {
  // ASTRA-sim's --comm-group-configuration: {"<pg_name>": [ranks...]}; without it (or for a
  // node without pg_name) a COMM_COLL spans all ranks.
  std::string comm_groups;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  CpuNodes cpu_nodes = CpuNodes::skip;
  // Hardware that times compute nodes carrying only num_ops (and tensor_size, bytes moved);
  // peak_flops == 0: such nodes are an error.
  HardwareConfig hardware;
};

[[nodiscard]] Workload import_chakra(const std::string& prefix,
                                     const ChakraImportOptions& options = {},
                                     ImportReport* report = nullptr);
// A GPU preset's roofline (a100, h100, ...) with the default MFU; `field` names the option.
[[nodiscard]] HardwareConfig gpu_hardware(const std::string& preset, const std::string& field);
void export_chakra(const Workload& w, const std::string& prefix);

struct AstraImportOptions {
  int gpus = 0;                     // 0: from the header's all_gpus
  double seconds_per_cycle = 1e-9;  // ASTRA-sim 2.x: cycles are ns
  // Ranks in the model-parallel group (ASTRA-sim's first network dimension); 0: the header's
  // model_parallel_NPU_group. Needed by the hybrid policies that do not state it.
  int model_group = 0;
};

[[nodiscard]] Workload import_astra(const std::string& path, const AstraImportOptions& options = {},
                                    ImportReport* report = nullptr);
[[nodiscard]] Workload parse_astra(const std::string& text, const std::string& label,
                                   const AstraImportOptions& options = {},
                                   ImportReport* report = nullptr);

}  // namespace flux::workload
