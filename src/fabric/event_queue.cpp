#include "fabric/event_queue.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace flux::fabric {

namespace {

constexpr std::size_t kArity = 4;

// An event's place in the order, (time, seq), as one unsigned 128-bit number (the sign bit
// flipped puts negative times first): choosing the least of four children then takes no branch
// on data, where comparing the two fields one after the other mispredicted often.
unsigned __int128 key(const Event& e) {
  const std::uint64_t time = std::bit_cast<std::uint64_t>(e.time) ^ (std::uint64_t{1} << 63);
  return static_cast<unsigned __int128>(time) << 64 | e.seq;
}

}  // namespace

Event EventQueue::pop() {
  Event top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
  return top;
}

void EventQueue::sift_up(std::size_t i) {
  const Event e = heap_[i];
  const unsigned __int128 k = key(e);
  Event* heap = heap_.data();
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!(k < key(heap[parent]))) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = e;
}

void EventQueue::sift_down(std::size_t i) {
  const Event e = heap_[i];
  const unsigned __int128 k = key(e);
  const std::size_t n = heap_.size();
  Event* heap = heap_.data();
  while (true) {
    const std::size_t first = kArity * i + 1;
    if (first >= n) break;
    std::size_t child = first;
    unsigned __int128 least = key(heap[first]);
    for (std::size_t c = first + 1; c < std::min(first + kArity, n); ++c) {
      const unsigned __int128 kc = key(heap[c]);
      const bool less = kc < least;
      child = less ? c : child;
      least = less ? kc : least;
    }
    if (!(least < k)) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = e;
}

}  // namespace flux::fabric
