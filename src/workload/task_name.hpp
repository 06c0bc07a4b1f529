#pragma once
// A task's name in 8 bytes: a pointer to one immutable, reference-counted string that tasks of
// the same name share. Generators give every rank of a stage, and every message of a collective
// step, the same name, so the 1,024-GPU iteration's 18.5 M tasks hold a few distinct strings
// each shared by up to a thousand tasks; a std::string per task took 32 bytes plus, for names
// over 15 characters, a heap block of its own. A TaskName made from a string holds its own copy;
// copying a TaskName shares it (thread-safe counting: tasks are copied across solver threads).
#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace flux::workload {

class TaskName {
 public:
  TaskName() = default;
  TaskName(std::string_view s);  // NOLINT(google-explicit-constructor): assigned from strings
  TaskName(const char* s) : TaskName(std::string_view(s)) {}  // NOLINT(google-explicit-constructor)
  TaskName(const std::string& s)
      : TaskName(std::string_view(s)) {}  // NOLINT(google-explicit-constructor)
  TaskName(const TaskName& o) noexcept : text_(o.text_) { share(); }
  TaskName(TaskName&& o) noexcept : text_(o.text_) { o.text_ = nullptr; }
  TaskName& operator=(const TaskName& o) noexcept;
  TaskName& operator=(TaskName&& o) noexcept;
  ~TaskName() { release(); }

  [[nodiscard]] std::string_view view() const {
    return text_ == nullptr ? std::string_view() : std::string_view(text_, header()->size);
  }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] std::string str() const { return std::string(view()); }
  [[nodiscard]] const char* c_str() const { return text_ == nullptr ? "" : text_; }
  [[nodiscard]] bool empty() const { return text_ == nullptr; }
  [[nodiscard]] std::size_t size() const { return view().size(); }

  friend bool operator==(const TaskName& a, const TaskName& b) {
    return a.text_ == b.text_ || a.view() == b.view();
  }
  friend bool operator==(const TaskName& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const TaskName& a, const char* b) { return a.view() == b; }
  friend bool operator==(const TaskName& a, const std::string& b) { return a.view() == b; }
  friend std::string operator+(const TaskName& a, std::string_view b) { return a.str().append(b); }
  friend std::ostream& operator<<(std::ostream& os, const TaskName& n) { return os << n.view(); }

 private:
  struct Header {
    std::atomic<std::uint32_t> refs;
    std::uint32_t size;
  };
  [[nodiscard]] Header* header() const {
    return reinterpret_cast<Header*>(text_ - sizeof(Header));  // NOLINT: the block's layout
  }
  void share() const {
    if (text_ != nullptr) header()->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release();

  char* text_ = nullptr;  // NUL-terminated, right after its Header; nullptr = empty
};

}  // namespace flux::workload

template <>
struct fmt::formatter<flux::workload::TaskName> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const flux::workload::TaskName& n, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(n.view(), ctx);
  }
};
