#pragma once
// Rank placement: the global rank is a mixed-radix number over the mesh dimensions in the
// configured order (Megatron-core `order="tp-cp-ep-dp-pp"`: TP varies fastest, PP slowest). The
// dense data-parallel group spans the ep and dp mesh dimensions (EP is carved out of DP, so the
// mesh dp size is DP / EP). Groups are returned in ring order (by the coordinates that vary).
// Complexity: O(group size) per query.
#include <array>
#include <initializer_list>
#include <vector>

#include "workload/scenario.hpp"

namespace flux::workload {

class RankLayout {
 public:
  explicit RankLayout(const ParallelConfig& p);

  int world() const { return world_; }
  int size(Dim d) const { return size_[static_cast<std::size_t>(d)]; }
  int coord(int rank, Dim d) const {
    const auto i = static_cast<std::size_t>(d);
    return rank / stride_[i] % size_[i];
  }
  // Ranks that agree with `rank` on every dimension not in `vary`; the first listed dimension
  // varies fastest.
  [[nodiscard]] std::vector<int> group(int rank, std::initializer_list<Dim> vary) const;
  // All ranks of pipeline stage `stage`, ascending.
  [[nodiscard]] std::vector<int> stage_ranks(int stage) const;
  // The rank with the same coordinates as `rank` except `d` set to `value`.
  [[nodiscard]] int with(int rank, Dim d, int value) const;

 private:
  int world_ = 1;
  std::array<int, kDims> size_{};
  std::array<int, kDims> stride_{};
};

}  // namespace flux::workload
