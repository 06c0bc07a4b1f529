#pragma once
// The step shared by the set-up pigeonhole (lower_bound.cpp) and the set-up chains
// (setup_chain.cpp): two messages on different circuits of one port cannot overlap, and the port
// is re-pointed between them.
#include <algorithm>

namespace flux::cosched {

// The end of y, plus `after` (its tail or lag), when x runs first on the same port: y starts at its
// release at the earliest, and not before x has ended and the port has been set up (τ).
[[nodiscard]] inline double end_after_port_change(double x_release, double x_length,
                                                  double y_release, double y_length, double after,
                                                  double tau) {
  return std::max(y_release, x_release + x_length + tau) + y_length + after;
}

}  // namespace flux::cosched
