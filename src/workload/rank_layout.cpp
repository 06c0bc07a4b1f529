#include "workload/rank_layout.hpp"

namespace flux::workload {

RankLayout::RankLayout(const ParallelConfig& p) {
  const int dp_mesh = p.data_parallel_size() / p.expert_model_parallel_size;
  size_ = {p.tensor_model_parallel_size, p.context_parallel_size, p.expert_model_parallel_size,
           dp_mesh, p.pipeline_model_parallel_size};
  int stride = 1;
  for (Dim d : p.order) {
    stride_[static_cast<std::size_t>(d)] = stride;
    stride *= size_[static_cast<std::size_t>(d)];
  }
  world_ = stride;
}

int RankLayout::with(int rank, Dim d, int value) const {
  const auto i = static_cast<std::size_t>(d);
  return rank + (value - coord(rank, d)) * stride_[i];
}

std::vector<int> RankLayout::group(int rank, std::initializer_list<Dim> vary) const {
  int base = rank;
  int count = 1;
  for (Dim d : vary) {
    base = with(base, d, 0);
    count *= size(d);
  }
  std::vector<int> members;
  members.reserve(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) {
    int r = base;
    int rest = k;
    for (Dim d : vary) {
      r = with(r, d, rest % size(d));
      rest /= size(d);
    }
    members.push_back(r);
  }
  return members;
}

std::vector<int> RankLayout::stage_ranks(int stage) const {
  std::vector<int> ranks;
  for (int r = 0; r < world_; ++r)
    if (coord(r, Dim::pp) == stage) ranks.push_back(r);
  return ranks;
}

}  // namespace flux::workload
