#include "fabric/hop_lists.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace flux::fabric {

namespace {

constexpr std::size_t kPasses = 8;  // filing passes; see seal()

}  // namespace

void HopLists::check_sealed() const {
  if (!logged_task_.empty())
    throw std::logic_error(
        fmt::format("HopLists: {} hops read before seal()", logged_task_.size()));
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

std::size_t HopLists::task_of(std::size_t hop) const {
  check_sealed();
  if (hop >= hops_.size())
    throw std::out_of_range(fmt::format("HopLists: hop {} of {}", hop, hops_.size()));
  // The last task whose list starts at or before the hop (tasks before it may be empty).
  return static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), hop) -
                                  first_.begin()) -
         1;
}

void HopLists::add(std::size_t task, const Hop& hop) {
  if (task >= size()) throw std::out_of_range(fmt::format("HopLists: task {} of {}", task, size()));
  if (hops_.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::length_error(fmt::format("HopLists: more than 2^32 - 1 hops"));
  hops_.push_back(hop);
  logged_task_.push_back(static_cast<std::uint32_t>(task));
}

void HopLists::seal() {
  if (logged_task_.empty()) return;
  ReallocArray<std::uint32_t> task = tasks_in_array_order();
  // Each task's place: its filed hops, then its logged ones in the order they came.
  std::fill(first_.begin(), first_.end(), 0);
  for (std::size_t i = 0; i < task.size(); ++i) ++first_[task[i] + 1];
  for (std::size_t t = 0; t < size(); ++t) first_[t + 1] += first_[t];
  // Hops added task after task (a timetable's placements) already are the lists.
  if (std::is_sorted(task.data(), task.data() + task.size())) return;
  // Files the hops in passes over ranges of tasks that hold about 1/kPasses of them each. A pass
  // moves its range's hops to their places and packs the others to the front of the array, whose
  // tail then goes back: the two arrays never hold much more than the hops once (1 + 1/kPasses
  // times), where filing in one pass held them twice. The cost is (kPasses + 1) / 2 sequential
  // reads of the hops, and the writes of a pass stay within one range of the filed array.
  const std::size_t total = hops_.size();
  ReallocArray<Hop> filed;
  filed.resize_for_overwrite(total);  // untouched until written: its pages come as it fills
  std::vector<std::uint32_t> cursor(first_.begin(), first_.end() - 1);
  for (std::size_t pass = 1; pass <= kPasses; ++pass) {
    const std::size_t end_task =
        pass == kPasses
            ? size()
            : static_cast<std::size_t>(
                  std::lower_bound(first_.begin(), first_.end() - 1, total / kPasses * pass) -
                  first_.begin());
    std::size_t kept = 0;
    // A run of one task's hops (ideal's flows log their pieces together) moves as one block: one
    // miss in the filed array per run instead of per hop.
    for (std::size_t i = 0, run = 0; i < hops_.size(); i += run) {
      const std::uint32_t t = task[i];
      for (run = 1; i + run < hops_.size() && task[i + run] == t;) ++run;
      if (t < end_task) {
        std::memcpy(static_cast<void*>(&filed[cursor[t]]), &hops_[i], run * sizeof(Hop));
        cursor[t] += static_cast<std::uint32_t>(run);
      } else {
        std::memmove(static_cast<void*>(&hops_[kept]), &hops_[i], run * sizeof(Hop));
        std::fill_n(&task[kept], run, t);
        kept += run;
      }
    }
    hops_.truncate(kept);
    task.truncate(kept);
  }
  hops_ = std::move(filed);
}

ReallocArray<std::uint32_t> HopLists::tasks_in_array_order() {
  ReallocArray<std::uint32_t> logged = std::exchange(logged_task_, {});
  const std::size_t filed = first_.back();
  if (filed == 0) return logged;
  ReallocArray<std::uint32_t> task;
  task.reserve(hops_.size());
  for (std::size_t t = 0; t < size(); ++t)
    for (std::uint32_t k = first_[t]; k < first_[t + 1]; ++k)
      task.push_back(static_cast<std::uint32_t>(t));
  for (std::size_t k = 0; k < logged.size(); ++k) task.push_back(logged[k]);
  return task;
}

}  // namespace flux::fabric
