#pragma once
// The circuit records of a dispatch while it runs, filed by window: the window's up, end and OCS
// once, then the ends of each of its circuits, 8 bytes a circuit. A rotor run keeps a few used
// circuits of each of millions of windows (23 M circuits on the 1,024-GPU rotornet-vlb
// iteration), and as 32-byte TimedCircuit records they were, with the engine's state, the peak
// of the run. take() writes the records out, giving the log's memory back as it goes, so that
// the two are never held whole at once.
#include <cstdint>
#include <vector>

#include "core/realloc_array.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux::fabric_baselines {

class CircuitLog {
 public:
  [[nodiscard]] std::size_t size() const { return ends_.size(); }
  // Records a circuit; consecutive circuits of one window (same up, end and OCS) share its entry.
  void add(fabric::Time up, fabric::Time end, int sw, int a, int b);
  // The records added from now on are of windows still open at the iteration end: take() keeps
  // them even if they went up at the end.
  void mark_open() { open_from_ = size(); }
  // Every record in the order added, down clamped to `end`, without those added before
  // mark_open() that went up at or after `end`. Empties the log.
  [[nodiscard]] std::vector<fabric::TimedCircuit> take(fabric::Time end);

 private:
  struct Window {
    fabric::Time up, end;
    int sw;
    std::uint32_t circuits;  // its records: the next ones in ends_
  };
  struct Ends {
    int a, b;
  };
  ReallocArray<Window> windows_;
  ReallocArray<Ends> ends_;
  std::size_t open_from_ = static_cast<std::size_t>(-1);
};

}  // namespace flux::fabric_baselines
