#pragma once
// Conflict analysis for the Flux MILP: which message pairs
// can collide on an OCS port, and how. Two messages conflict when they share a port on the same
// switch: any common endpoint for duplex circuits, a common sender (TX port) or a common receiver
// (RX port) for simplex circuits. Each pair is classed
//   R (`same_circuit`): both use the same circuit — no τ between them, only no overlap;
//   F (`ordered`):      one is a DAG ancestor of the other — the order is known, no binary;
//   U (free):           incomparable — the MILP decides the order with a binary.
// Duplex same-circuit pairs in opposite directions never collide (full duplex) and are dropped.
// The transitive closure is kept as one bitset of message ancestors per task.
// Complexity O((V + E)·M/64) for the closure, O(Σ_port users²) for the pairs.
#include <cstdint>
#include <vector>

#include "cosched/ancestry.hpp"
#include "cosched/instance.hpp"

namespace flux::cosched {

struct ConflictPair {
  int first = 0, second = 0;  // message indices; when `ordered`, first is an ancestor of second
  bool same_circuit = false;  // class R
  bool ordered = false;       // class F (else U)
};

struct ConflictAnalysis {
  std::vector<ConflictPair> pairs;
  int reuse = 0, fixed = 0, free = 0;  // |R|, |F|, |U|
  int dropped_duplex = 0;              // same circuit, opposite directions
};

// Message-ancestor bitsets: bit k of row m is set iff message k is an ancestor of message m.
class MessageClosure final : public Ancestry {
 public:
  explicit MessageClosure(const CoschedInstance& inst);
  // Bytes the construction needs at its peak: one bitset over the messages per task.
  [[nodiscard]] static double memory_bytes(const CoschedInstance& inst) {
    return 8.0 * static_cast<double>(inst.workload.tasks.size()) *
           static_cast<double>((inst.messages.size() + 63) / 64);
  }
  [[nodiscard]] bool ancestor(int a, int b) const override {  // a is an ancestor of b
    return (rows_[b][a >> 6] >> (a & 63)) & 1U;
  }

 private:
  std::vector<std::vector<std::uint64_t>> rows_;
};

// Pairs among the messages marked in `subset` (all when empty).
[[nodiscard]] ConflictAnalysis analyze_conflicts(const CoschedInstance& inst,
                                                 const Ancestry& closure,
                                                 const std::vector<char>& subset = {});

}  // namespace flux::cosched
