#pragma once
// Expansion of collectives into the point-to-point steps NCCL-style algorithms perform
//, with the small reduction compute tasks between steps.
//  * ring reduce-scatter / all-gather: p-1 steps, rank i sends a chunk S/p to rank i+1;
//    ring all-reduce = both, 2(p-1) steps of S/p.
//  * halving-doubling (Rabenseifner): reduce-scatter by recursive halving (step k: partner
//    i XOR p/2^(k+1), S/2^(k+1) bytes), all-gather by recursive doubling; p a power of two.
//  * direct all-to-all: one step, rank i sends bytes[i][j] to rank j (zero entries are skipped).
//  * ring pass (context parallelism): p-1 steps of the same block around the ring.
//  * broadcast / reduce: a chain through the group; barrier: a synchronisation without data.
// `ready[i]` are the tasks rank i's first send waits for; the result `done[i]` are the tasks after
// which rank i holds its result. With `reduce_in_stream` a received chunk is reduced by a
// compute task on the receiver's compute chain before it is forwarded; otherwise (overlapped
// collectives whose kernels run beside the compute stream) the forward waits only for the
// receive. Complexity: O(p * steps) tasks.
#include <string>
#include <vector>

#include "workload/scenario.hpp"
#include "workload/task_emitter.hpp"

namespace flux::workload {

struct CollectiveSpec {
  std::vector<int> ranks;  // the group, in ring order
  double bytes = 0;        // S: all-reduce buffer, reduce-scatter input, all-gather output
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  bool reduce_in_stream = true;
  double reduce_seconds_per_byte = 0;  // duration of reducing one received byte
  std::string name;                    // prefix of the task names
  TaskTags tags;                       // collective id is assigned by the call
};

[[nodiscard]] std::vector<Deps> all_reduce(TaskEmitter& em, const CollectiveSpec& spec,
                                           const std::vector<Deps>& ready);
[[nodiscard]] std::vector<Deps> reduce_scatter(TaskEmitter& em, const CollectiveSpec& spec,
                                               const std::vector<Deps>& ready);
[[nodiscard]] std::vector<Deps> all_gather(TaskEmitter& em, const CollectiveSpec& spec,
                                           const std::vector<Deps>& ready);
// bytes[i][j]: payload from ranks[i] to ranks[j].
[[nodiscard]] std::vector<Deps> all_to_all(TaskEmitter& em, const CollectiveSpec& spec,
                                           const std::vector<std::vector<double>>& bytes,
                                           const std::vector<Deps>& ready);
// p-1 ring steps, each moving `spec.bytes` from every rank to the next one.
[[nodiscard]] std::vector<Deps> ring_pass(TaskEmitter& em, const CollectiveSpec& spec,
                                          const std::vector<Deps>& ready);

// Unpipelined chain along the group: ranks[0] sends S to ranks[1], which forwards it, ... (p - 1
// sends of S). With `to_root` the chain runs backwards and ranks[0] ends with the result (a
// reduce; the reductions are not timed).
[[nodiscard]] std::vector<Deps> broadcast(TaskEmitter& em, const CollectiveSpec& spec,
                                          const std::vector<Deps>& ready, bool to_root = false);
// No data: every rank continues once every rank is ready.
[[nodiscard]] std::vector<Deps> barrier(const std::vector<Deps>& ready);

}  // namespace flux::workload
