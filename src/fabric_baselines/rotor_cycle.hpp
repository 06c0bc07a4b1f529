#pragma once
// The fixed cycle of a rotor fabric (RotorNet): M matchings (round_robin.hpp) dealt round-robin
// to the σ OCSes — in slot s, OCS k holds matching (s·σ + k) mod M — with the lookups that let
// the dispatcher visit only the circuit directions that have bytes queued instead of all n GPUs
// of every slot: a GPU's partner and its place in a matching's circuit order, the matching that
// holds a pair, and the next slot in which an OCS plays a given matching.
// Memory: O(M · n + n² + σ · M) ints (about 12 MB at 1,024 GPUs); every lookup O(1).
#include <cstdint>
#include <vector>

#include "fabric_baselines/round_robin.hpp"

namespace flux::fabric_baselines {

class RotorCycle {
 public:
  // `duplex`: a circuit {a, b} carries a -> b and b -> a; else only a -> b.
  RotorCycle(std::vector<Matching> matchings, int gpus, int ocs, bool duplex);

  [[nodiscard]] bool empty() const { return matchings_.empty(); }
  [[nodiscard]] const Matching& matching(int m) const {
    return matchings_[static_cast<std::size_t>(m)];
  }
  // The matching OCS `sw` holds in slot `slot`.
  [[nodiscard]] int matching_at(int sw, std::int64_t slot) const;
  // The matching an OCS holds in the slot after one where it holds m: matching_at without its
  // division, for a source that plays the slots one after the other.
  [[nodiscard]] int following(int m) const {
    const int next = m + step_;
    return next >= static_cast<int>(matchings_.size()) ? next - static_cast<int>(matchings_.size())
                                                       : next;
  }
  // Where `gpu` sends in matching m (-1: idle).
  [[nodiscard]] int partner(int m, int gpu) const { return partner_[at(m, gpu)]; }
  // The index in matching(m) of the circuit `gpu` sends on (-1: idle).
  [[nodiscard]] int circuit_of(int m, int gpu) const { return circuit_[at(m, gpu)]; }
  // The index in matching(m) of the circuit whose `b` end is `gpu` (-1: none). With simplex
  // circuits a GPU is the `a` of one circuit and the `b` of another.
  [[nodiscard]] int circuit_into(int m, int gpu) const { return into_[at(m, gpu)]; }
  // The rank of gpu's direction when the circuits of matching m are visited in order, the `a`
  // end of each before its `b` end.
  [[nodiscard]] int order(int m, int gpu) const;
  // The matching in which `from` sends to `to` (-1: none).
  [[nodiscard]] int matching_of(int from, int to) const {
    return pair_matching_[static_cast<std::size_t>(from) * static_cast<std::size_t>(n_) +
                          static_cast<std::size_t>(to)];
  }
  // The first slot >= `slot` in which OCS `sw` holds matching m (-1: never): one of the
  // `period()` slots from `slot` on.
  [[nodiscard]] std::int64_t next_slot(int sw, int m, std::int64_t slot) const;
  // The slots after which every OCS plays its matchings again.
  [[nodiscard]] std::int64_t period() const { return period_; }

 private:
  [[nodiscard]] std::size_t at(int m, int gpu) const {
    return static_cast<std::size_t>(m) * static_cast<std::size_t>(n_) +
           static_cast<std::size_t>(gpu);
  }

  std::vector<Matching> matchings_;
  int n_, ocs_;
  bool duplex_;
  std::int64_t period_ = 1;          // slots after which an OCS repeats its matchings
  int step_ = 0;                     // σ mod M: from one slot's matching to the next one's
  std::vector<int> partner_;         // [m · n + gpu]
  std::vector<int> circuit_;         // [m · n + gpu]
  std::vector<int> into_;            // [m · n + gpu]
  std::vector<int> pair_matching_;   // [from · n + to]
  std::vector<std::int64_t> first_;  // [sw · M + m]: first slot of matching m on sw, or -1
};

}  // namespace flux::fabric_baselines
