#pragma once
// A wall-clock deadline shared by the stages of one time budget (flux's --time-limit): a stage
// that can stop part-way asks it and returns what it has, or nothing. The default never passes,
// so code given no deadline behaves exactly as without one.
#include <chrono>
#include <cstdint>
#include <optional>

namespace flux {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  Deadline() = default;  // never passes
  explicit Deadline(Clock::time_point at) : at_(at) {}
  // `seconds` from now; ≤ 0 has already passed.
  [[nodiscard]] static Deadline after(double seconds) {
    return Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds)));
  }
  [[nodiscard]] bool never() const { return !at_; }
  [[nodiscard]] bool passed() const { return at_ && Clock::now() >= *at_; }
  // False when fewer than `seconds` are left before it (a stage that would take that long is not
  // worth starting: its work would be thrown away).
  [[nodiscard]] bool leaves(double seconds) const {
    return !at_ || Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(seconds)) <
                       *at_;
  }

 private:
  std::optional<Clock::time_point> at_;
};

// Asks a deadline on the first call and then every `every` calls only: loops over millions of
// tasks poll once per task, and reading the clock each time would cost a visible share of them.
// Once passed, it stays passed.
class DeadlinePoll {
 public:
  explicit DeadlinePoll(const Deadline& deadline, std::uint32_t every = 4096)
      : deadline_(deadline), every_(every) {}
  [[nodiscard]] bool passed() {
    if (passed_ || deadline_.never()) return passed_;
    if (calls_++ % every_ == 0) passed_ = deadline_.passed();
    return passed_;
  }

 private:
  Deadline deadline_;
  std::uint32_t every_;
  std::uint32_t calls_ = 0;
  bool passed_ = false;
};

}  // namespace flux
