#pragma once
// Integer simulation time: picoseconds in an int64 (±106 days), so event order and interval
// checks are exact; files keep seconds. Also the transmission-time rule of the fabric
// model: a hop of `bytes` on one circuit direction occupies α + bytes/B.
#include <cmath>
#include <cstdint>

#include "fabric/fabric.hpp"

namespace flux::fabric {

using Time = std::int64_t;  // picoseconds
inline constexpr double kPsPerSecond = 1e12;
inline constexpr Time kNever = INT64_MAX;

// Nearest picosecond; callers validate that `seconds` is finite and in range.
[[nodiscard]] inline Time to_time(double seconds) {
  return static_cast<Time>(std::llround(seconds * kPsPerSecond));
}
[[nodiscard]] inline double to_seconds(Time t) {
  return static_cast<double>(t) / kPsPerSecond;
}

// Link timing of one fabric in simulator units.
struct LinkTiming {
  double bytes_per_ps = 0.0;  // B
  Time alpha = 0;             // α

  explicit LinkTiming(const Fabric& f)
      : bytes_per_ps(f.link_rate / kPsPerSecond), alpha(to_time(f.latency)) {}
  // α + bytes/B, rounded up so that a hop never carries more than B allows.
  [[nodiscard]] Time duration(double bytes) const {
    return alpha + static_cast<Time>(std::ceil(bytes / bytes_per_ps - 1e-9));
  }
  // Bytes that fit in a window of `span` ps after paying α (0 if the window is shorter than α).
  [[nodiscard]] double capacity(Time span) const {
    return span > alpha ? static_cast<double>(span - alpha) * bytes_per_ps : 0.0;
  }
};

}  // namespace flux::fabric
