#include "fabric/event_queue.hpp"

#include <algorithm>
#include <cstddef>

namespace flux::fabric {

namespace {

constexpr std::size_t kArity = 4;

}  // namespace

Event EventQueue::pop() {
  Event top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
  return top;
}

void EventQueue::sift_up(std::size_t i) {
  Event e = heap_[i];
  while (i > 0) {
    std::size_t parent = (i - 1) / kArity;
    if (!before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventQueue::sift_down(std::size_t i) {
  Event e = heap_[i];
  const std::size_t n = heap_.size();
  while (true) {
    const std::size_t first = kArity * i + 1;
    if (first >= n) break;
    std::size_t child = first;
    for (std::size_t c = first + 1; c < std::min(first + kArity, n); ++c)
      if (before(heap_[c], heap_[child])) child = c;
    if (!before(heap_[child], e)) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = e;
}

}  // namespace flux::fabric
