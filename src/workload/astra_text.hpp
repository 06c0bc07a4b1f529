#pragma once
// The ASTRA-sim 1.0 / SimAI text workload format, parsed as ASTRA-sim 1.0 reads it: whitespace-
// separated tokens (spaces, tabs, CR of CRLF files and trailing blanks are all separators).
// Line 1: the parallelism policy, then its parameters: HYBRID_TRANSFORMER[_FWD_IN_BCKWD] takes
// `model_parallel_NPU_group: N` (and `checkpoints: n l..`, `checkpoint_initiates: n l..`),
// HYBRID_DLRM[_ENHANCED] the index of the last bottom layer; SimAI adds `key: value` pairs (ep,
// pp, vpp, ga, all_gpus). Line 2: the layer count. Then one line per layer: name, a dependency
// field ASTRA-sim ignores, and for forward, input gradient and weight gradient each the compute
// time (cycles), the collective keyword and its size (bytes), then the weight-update time; under
// HYBRID_CUSTOMIZED a 13th field gives the layer's own policy. Complexity: O(file size).
#include <string>
#include <vector>

namespace flux::workload {

struct AstraLayer {
  int line = 0;
  std::string name;
  double compute[3] = {0, 0, 0};  // fwd, input gradient, weight gradient (cycles)
  std::string type[3];            // collective keyword, possibly with a group suffix
  double bytes[3] = {0, 0, 0};
  double update = 0;
  std::string policy;  // HYBRID_CUSTOMIZED: this layer's policy
};

struct AstraFile {
  std::string policy;
  int tp = 0;  // model_parallel_NPU_group (0: not given)
  int pp = 1, ep = 1, gpus = 0;
  int checkpoints = 0;
  int dlrm_last_bottom = -1;
  std::vector<AstraLayer> layers;
};

[[nodiscard]] AstraFile parse_astra_text(const std::string& text, const std::string& label);

}  // namespace flux::workload
