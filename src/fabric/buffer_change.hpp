#pragma once
// One record of the NIC-buffer metric (nic_buffer.cpp): a change of one GPU's buffer curves at
// one instant. The metric makes them task after task and sweeps them in time order.
#include <bit>
#include <cstdint>

namespace flux::fabric {

// What a change moves: a jump of the NIC buffer or of the eager buffer, a change of either's
// slope (bytes per picosecond) or of both slopes by the same amount (a hop the NIC and the eager
// curve both carry: one record instead of two), or a jump of the waiting or HBM-held bytes (step
// functions).
enum Curve : int { kNic, kNicSlope, kWait, kHbm, kEager, kEagerSlope, kBothSlopes };

// One change of one GPU's curves at time t (picoseconds, fractional where a staging window starts
// to drain). One curve per record keeps a record at 24 bytes: a 12 M-send run makes ~100 M. `seq`
// is the record's position as made: sorting by (t, gpu, seq) gives the order of a stable sort by
// (t, gpu) without its buffer of half the list. GPU, seq and curve share one 64-bit word, in
// that order from the top, so that (t, key) compares as (t, gpu, seq).
struct Change {
  double t = 0;
  double by = 0;
  std::uint64_t key = 0;  // gpu (29 bits), seq (32), what (3)

  Change() = default;
  Change(double time, double amount, std::uint32_t seq, std::uint32_t gpu, Curve what)
      : t(time + 0.0),  // -0 is +0 (order() reads the bits)
        by(amount),
        key(std::uint64_t{gpu} << 35 | std::uint64_t{seq} << 3 | static_cast<std::uint64_t>(what)) {
  }
  // (t, gpu, seq) as one number: times are >= +0, and the bits of such doubles order as their
  // values do. Sorting compares two of these without a branch where (t, key) took two to four.
  [[nodiscard]] unsigned __int128 order() const {
    return static_cast<unsigned __int128>(std::bit_cast<std::uint64_t>(t)) << 64 | key;
  }
  [[nodiscard]] std::uint64_t time_bits() const { return std::bit_cast<std::uint64_t>(t); }
  [[nodiscard]] int gpu() const { return static_cast<int>(key >> 35); }
  [[nodiscard]] int what() const { return static_cast<int>(key & 7); }
};

}  // namespace flux::fabric
