#include "workload/task_name.hpp"

#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>

namespace flux::workload {

TaskName::TaskName(std::string_view s) {
  if (s.empty()) return;
  if (s.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("TaskName: a name of 4 GB or more");
  char* block = static_cast<char*>(::operator new(sizeof(Header) + s.size() + 1));
  new (block) Header{{1}, static_cast<std::uint32_t>(s.size())};
  text_ = block + sizeof(Header);
  std::memcpy(text_, s.data(), s.size());
  text_[s.size()] = '\0';
}

TaskName& TaskName::operator=(const TaskName& o) noexcept {
  char* const text = o.text_;  // o may be *this: release() clears it
  o.share();
  release();
  text_ = text;
  return *this;
}

TaskName& TaskName::operator=(TaskName&& o) noexcept {
  if (this != &o) {
    release();
    text_ = o.text_;
    o.text_ = nullptr;
  }
  return *this;
}

void TaskName::release() {
  if (text_ == nullptr) return;
  Header* h = header();
  // The last owner frees: acq_rel orders every other owner's reads before the delete.
  if (h->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    h->~Header();
    ::operator delete(reinterpret_cast<char*>(h));  // NOLINT: allocated as chars
  }
  text_ = nullptr;
}

}  // namespace flux::workload
