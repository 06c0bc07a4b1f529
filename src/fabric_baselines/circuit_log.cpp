#include "fabric_baselines/circuit_log.hpp"

#include <algorithm>
#include <limits>

namespace flux::fabric_baselines {

namespace {

// Records written out between two releases of the log's memory (32 MB of records).
constexpr std::size_t kReleaseEvery = std::size_t{1} << 20;

}  // namespace

void CircuitLog::add(fabric::Time up, fabric::Time end, int sw, int a, int b) {
  Window* last = windows_.empty() ? nullptr : &windows_[windows_.size() - 1];
  if (last == nullptr || last->up != up || last->end != end || last->sw != sw ||
      last->circuits == std::numeric_limits<std::uint32_t>::max()) {
    windows_.push_back({up, end, sw, 0});
    last = &windows_[windows_.size() - 1];
  }
  ++last->circuits;
  ends_.push_back({a, b});
}

std::vector<fabric::TimedCircuit> CircuitLog::take(fabric::Time end) {
  // Records [first, first + w.circuits) of window w that stay.
  const auto kept_of = [&](const Window& w, std::size_t first) -> std::size_t {
    if (w.up < end) return w.circuits;
    const std::size_t last = first + w.circuits;
    return last > open_from_ ? last - std::max(first, open_from_) : 0;
  };
  std::size_t kept = 0;
  for (std::size_t i = 0, first = 0; i < windows_.size(); first += windows_[i++].circuits)
    kept += kept_of(windows_[i], first);
  std::vector<fabric::TimedCircuit> out;
  out.reserve(kept);
  // Reversed, the records still to write are at the tail of the arrays, which give their memory
  // back as the records fill `out`.
  std::reverse(windows_.data(), windows_.data() + windows_.size());
  std::reverse(ends_.data(), ends_.data() + ends_.size());
  std::size_t windows = windows_.size(), ends = ends_.size(), released = ends, first = 0;
  while (windows > 0) {
    const Window w = windows_[--windows];
    const std::size_t skip = w.circuits - kept_of(w, first);  // the first ones, if any
    for (std::uint32_t k = 0; k < w.circuits; ++k) {
      const Ends e = ends_[ends - 1 - k];
      if (k >= skip) out.push_back({w.up, std::min(w.end, end), w.sw, e.a, e.b});
    }
    ends -= w.circuits;
    first += w.circuits;
    if (released - ends >= kReleaseEvery || windows == 0) {
      windows_.truncate(windows);
      ends_.truncate(ends);
      released = ends;
    }
  }
  return out;
}

}  // namespace flux::fabric_baselines
