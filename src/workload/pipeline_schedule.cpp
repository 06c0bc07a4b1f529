#include "workload/pipeline_schedule.hpp"

#include <algorithm>

namespace flux::workload {
namespace {

PipelineOp interleaved_op(int k, int stages, int chunks, bool forward) {
  const int group = stages * chunks;
  int chunk = (k % group) / stages;
  if (!forward) chunk = chunks - 1 - chunk;
  return {chunk, (k / group) * stages + k % stages, forward};
}

}  // namespace

std::vector<PipelineOp> pipeline_schedule(int stage, int stages, int microbatches, int chunks) {
  const int total = microbatches * chunks;
  const int warmup = chunks == 1
                         ? std::min(stages - stage - 1, total)
                         : std::min((stages - stage - 1) * 2 + (chunks - 1) * stages, total);
  std::vector<PipelineOp> ops;
  ops.reserve(static_cast<std::size_t>(2 * total));
  auto op = [&](int k, bool fwd) {
    return chunks == 1 ? PipelineOp{0, k, fwd} : interleaved_op(k, stages, chunks, fwd);
  };
  for (int k = 0; k < warmup; ++k) ops.push_back(op(k, true));
  for (int k = 0; k < total - warmup; ++k) {
    ops.push_back(op(k + warmup, true));
    ops.push_back(op(k, false));
  }
  for (int k = total - warmup; k < total; ++k) ops.push_back(op(k, false));
  return ops;
}

bool pipeline_input(int stage, int stages, int chunks, const PipelineOp& op, int& from_stage,
                    PipelineOp& from_op) {
  from_op = op;
  if (op.forward) {
    if (stage > 0) {
      from_stage = stage - 1;
      return true;
    }
    if (op.chunk == 0) return false;
    from_stage = stages - 1;
    from_op.chunk = op.chunk - 1;
    return true;
  }
  if (stage < stages - 1) {
    from_stage = stage + 1;
    return true;
  }
  if (op.chunk == chunks - 1) return false;
  from_stage = 0;
  from_op.chunk = op.chunk + 1;
  return true;
}

}  // namespace flux::workload
