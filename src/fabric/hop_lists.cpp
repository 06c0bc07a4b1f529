#include "fabric/hop_lists.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace flux::fabric {

namespace {

// A log chunk grows with the log up to 2^20 records (40 MB): small runs take little memory, and
// a full chunk is one mapping that goes back to the system when seal() has filed it.
constexpr std::size_t kMaxChunk = std::size_t{1} << 20;
constexpr std::size_t kMinChunk = 256;

}  // namespace

void HopLists::check_sealed() const {
  if (logged_ > 0)
    throw std::logic_error(fmt::format("HopLists: {} hops read before seal()", logged_));
}

std::span<const Hop> HopLists::operator[](std::size_t task) const {
  check_sealed();
  return {hops_.data() + first_[task], first_[task + 1] - first_[task]};
}

std::span<Hop> HopLists::operator[](std::size_t task) {
  check_sealed();
  return {hops_.data() + first_[task], first_[task + 1] - first_[task]};
}

std::span<const Hop> HopLists::all() const {
  check_sealed();
  return hops_;
}

void HopLists::add(std::size_t task, const Hop& hop) {
  if (task >= size()) throw std::out_of_range(fmt::format("HopLists: task {} of {}", task, size()));
  if (log_.empty() || log_.back().size() == log_.back().capacity()) {
    log_.emplace_back();
    log_.back().reserve(std::clamp(logged_, kMinChunk, kMaxChunk));
  }
  log_.back().push_back(
      {static_cast<std::uint32_t>(task), hop.sw, hop.from, hop.to, hop.start, hop.end, hop.bytes});
  ++logged_;
}

void HopLists::seal() {
  if (logged_ == 0) return;
  const std::size_t total = hops_.size() + logged_;
  if (total > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error(fmt::format("HopLists: {} hops, at most 2^32 - 1", total));
  // Each task's hops: its filed ones, then its logged ones in log order.
  std::vector<std::uint32_t> start(first_.size(), 0);
  for (std::size_t t = 0; t < size(); ++t) start[t + 1] = first_[t + 1] - first_[t];
  for (const auto& chunk : log_)
    for (const Logged& l : chunk) ++start[l.task + 1];
  for (std::size_t t = 0; t < size(); ++t) start[t + 1] += start[t];
  std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
  std::vector<Hop> filed(total);
  for (std::size_t t = 0; t < size() && !hops_.empty(); ++t) {
    std::copy(hops_.begin() + first_[t], hops_.begin() + first_[t + 1], filed.begin() + cursor[t]);
    cursor[t] += first_[t + 1] - first_[t];
  }
  hops_ = {};
  for (auto& chunk : log_) {
    for (const Logged& l : chunk)
      filed[cursor[l.task]++] = {l.sw, l.from, l.to, l.start, l.end, l.bytes};
    chunk = {};  // its memory goes back before the next chunk is filed
  }
  first_ = std::move(start);
  hops_ = std::move(filed);
  log_.clear();
  logged_ = 0;
}

}  // namespace flux::fabric
