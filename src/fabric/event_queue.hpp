#pragma once
// Min-heap of simulator events ordered by (time, sequence number): events at the same time pop in
// the order they were pushed, so a run is deterministic. O(log n) push and pop. The heap is
// 4-ary: a run at cluster scale holds millions of events, and four children side by side (128
// bytes, two cache lines) take half the levels, hence half the misses, of two.
#include <cstdint>
#include <vector>

#include "fabric/sim_time.hpp"

namespace flux::fabric {

struct Event {
  Time time = 0;
  std::uint64_t seq = 0;
  std::int64_t payload = 0;  // meaning decided by the engine (task index or timer tag)
  int kind = 0;
};

class EventQueue {
 public:
  void push(Time time, int kind, std::int64_t payload) {
    heap_.push_back({time, next_seq_++, payload, kind});
    sift_up(heap_.size() - 1);
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  [[nodiscard]] Event pop();

 private:
  void sift_up(std::size_t i);
  void sift_down(std::size_t i);
  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace flux::fabric
