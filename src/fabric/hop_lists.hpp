#pragma once
// Every send's hops (pieces of a message on one circuit or the electrical fabric), indexed by
// task, in one array with an offset per task: 4 bytes per task plus 40 per hop, where a
// std::vector per task took 24 bytes per task plus a heap block per send (the 1,024-GPU
// iteration has 18.5 M tasks and 12 M sends). Hops may be added in any order of tasks, as an
// engine records them while it runs: they are appended to the same array, with their task in a
// side log of 4 bytes per hop, and seal() files them under their tasks (a stable counting sort)
// in passes that release the log as they go, so filing never holds a second copy of the hops.
// Hops added task after task need no filing: seal() only counts them.
// Reading a list while hops wait in the log is a logic error.
#include <cstdint>
#include <span>
#include <vector>

#include "core/realloc_array.hpp"
#include "fabric/sim_time.hpp"

namespace flux::fabric {

inline constexpr int kElectrical = -1;  // hop switch of the ideal electrical fabric

struct Hop {
  int sw = 0;            // OCS index, or kElectrical
  int from = 0, to = 0;  // GPUs; the message's src/dst unless relayed
  Time start = 0, end = 0;
  double bytes = 0.0;
};

class HopLists {
 public:
  HopLists() = default;
  explicit HopLists(std::size_t tasks) : first_(tasks + 1, 0) {}  // every list empty

  [[nodiscard]] std::size_t size() const { return first_.empty() ? 0 : first_.size() - 1; }
  [[nodiscard]] std::span<const Hop> operator[](std::size_t task) const;
  [[nodiscard]] std::span<Hop> operator[](std::size_t task);
  [[nodiscard]] std::span<const Hop> all() const;  // every hop, task after task
  [[nodiscard]] std::size_t hop_count() const { return hops_.size(); }
  // The task whose list holds all()[hop] (a binary search over the tasks).
  [[nodiscard]] std::size_t task_of(std::size_t hop) const;

  void add(std::size_t task, const Hop& hop);  // task < size()
  void seal();                                 // files the logged hops; cheap when none are

 private:
  void check_sealed() const;
  // The task of every hop, filed or logged, in array order; empties the log of tasks.
  [[nodiscard]] ReallocArray<std::uint32_t> tasks_in_array_order();

  std::vector<std::uint32_t> first_;  // [task] position of its first hop; [size()] = filed hops
  ReallocArray<Hop> hops_;            // the filed hops, task after task, then the logged ones
  ReallocArray<std::uint32_t> logged_task_;  // [k] the task of hop first_.back() + k
};

}  // namespace flux::fabric
