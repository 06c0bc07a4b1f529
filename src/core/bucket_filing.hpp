#pragma once
// Numbers filed by bucket with a counting sort: each bucket's numbers end up contiguous, in the
// order they were put. It holds 4 bytes per number, where sorting a record per number by its
// bucket holds the record (32 bytes for a hop or a circuit end, hundreds of MB on the largest
// runs). Two passes over the items: count() each item's bucket (or each bucket's items at once),
// then place() once, then put() each item into its bucket. Fewer than 2^32 numbers.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/realloc_array.hpp"

namespace flux {

class BucketFiling {
 public:
  explicit BucketFiling(std::size_t buckets) : first_(buckets + 1, 0) {}

  void count(std::size_t bucket, std::uint32_t items = 1) { first_[bucket + 1] += items; }
  // After every count(): each bucket's slice starts where the buckets before it end.
  void place() {
    for (std::size_t b = 0; b + 1 < first_.size(); ++b) first_[b + 1] += first_[b];
    filed_.resize_for_overwrite(first_.back());  // every slot is put once: no zeroing
    next_.assign(first_.begin(), first_.end() - 1);
  }
  // After place(), as many times per bucket as it was counted.
  void put(std::size_t bucket, std::uint32_t number) { filed_[next_[bucket]++] = number; }

  [[nodiscard]] std::size_t buckets() const { return first_.size() - 1; }
  [[nodiscard]] std::span<const std::uint32_t> bucket(std::size_t b) const {
    return {filed_.data() + first_[b], filed_.data() + first_[b + 1]};
  }

 private:
  std::vector<std::uint32_t> first_;  // [bucket] its first slot in filed_; counts before place()
  std::vector<std::uint32_t> next_;   // [bucket] its next free slot
  ReallocArray<std::uint32_t> filed_;
};

}  // namespace flux
