#pragma once
// The order in which one pipeline stage runs forward and backward passes (Megatron-LM
// schedules.py): 1F1B (Narayanan et al. SC'21) with min(p - stage - 1, m) warm-up forwards, then
// alternating forward/backward, then the cool-down backwards; with v > 1 model chunks per stage the
// interleaved 1F1B: (p - stage - 1)·2 + (v - 1)·p warm-up steps over m·v virtual micro-batches,
// chunk = (k mod p·v) / p (reversed for backward), micro-batch = (k / (p·v))·p + k mod p.
// Complexity: O(m·v).
#include <vector>

namespace flux::workload {

struct PipelineOp {
  int chunk = 0;
  int microbatch = 0;
  bool forward = true;
};

// Interleaving (chunks > 1) requires microbatches % stages == 0.
[[nodiscard]] std::vector<PipelineOp> pipeline_schedule(int stage, int stages, int microbatches,
                                                        int chunks);

// The pass that must be finished (on any stage) before `op` may run on `stage`, or false when
// the op has no cross-stage input (first forward of chunk 0 on stage 0, last stage's first
// backward of the last chunk).
[[nodiscard]] bool pipeline_input(int stage, int stages, int chunks, const PipelineOp& op,
                                  int& from_stage, PipelineOp& from_op);

}  // namespace flux::workload
