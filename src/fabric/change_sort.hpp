#pragma once
// Sorts the NIC-buffer metric's records of one histogram bucket by (t, gpu, seq), the order its
// sweep applies them in. A bucket holds a few hundred records, and comparing them (std::sort)
// mispredicts about every other comparison: that sort was the largest part of the metric. A
// bucket's records share few times (a rotor run's hops start and end at its slots' edges: 25
// records per distinct time on the 16-layer 1,024-GPU example under rotornet-vlb), so each time
// is replaced by its rank among the bucket's times (a hash table, then a sort of the distinct
// times), and the (rank, gpu) words are radix sorted, which does not branch on the data. A
// bucket with many distinct times, or a small one, is sorted by comparisons as before.
// Cost per bucket of n records and d distinct times: O(n + d log d + n · passes), passes = the
// bytes of (rank, gpu) that vary, about two.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "fabric/buffer_change.hpp"

namespace flux::fabric {

class ChangeSort {
 public:
  // `records` in increasing seq (the order they were made): the same records by (t, gpu, seq),
  // either `records` sorted in place or this object's copy, valid until the next call.
  [[nodiscard]] std::span<const Change> operator()(std::span<Change> records);

 private:
  // rank_[i]: the rank of records[i]'s time among the distinct times; false (and nothing
  // ranked) when more than a quarter of the records have a time of their own.
  bool rank_times(std::span<const Change> records);
  // Sorts packed_ (in increasing order of its low `bits`) by the bits above, stably.
  void radix_sort_above(int bits);

  struct Slot {
    std::uint64_t time = 0;  // bits of the double
    std::uint32_t id = 0, generation = 0;
  };
  std::vector<Slot> table_;       // open addressing; a slot of an older generation is free
  std::uint32_t generation_ = 0;  // one per bucket, so the table is never cleared
  std::vector<std::pair<std::uint64_t, std::uint32_t>> times_;  // distinct (time, id)
  std::vector<std::uint32_t> rank_, rank_of_id_;
  std::vector<std::uint64_t> packed_, radix_;  // (rank, gpu, place in the bucket) words
  std::vector<Change> in_order_;
};

}  // namespace flux::fabric
