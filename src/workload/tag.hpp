#pragma once
// A task's phase or group tag ("fwd", "tp", ...): one pointer into a process-wide table of the
// distinct strings instead of a std::string per task. A 1,024-GPU iteration has 18 M tasks but a
// handful of distinct tags, so this saves 48 bytes a task. Interning is thread-safe; the strings
// live until the process ends, so a Tag can be copied anywhere and compared by pointer.
#include <fmt/format.h>

#include <ostream>
#include <string>
#include <string_view>

namespace flux::workload {

class Tag {
 public:
  Tag() = default;
  Tag(std::string_view s);  // NOLINT(google-explicit-constructor): assigned from strings
  Tag(const char* s) : Tag(std::string_view(s)) {}         // NOLINT(google-explicit-constructor)
  Tag(const std::string& s) : Tag(std::string_view(s)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] const std::string& str() const;
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool empty() const { return s_ == nullptr; }

  friend bool operator==(const Tag& a, const Tag& b) { return a.s_ == b.s_; }  // interned
  friend bool operator==(const Tag& a, const char* b) { return a.str() == b; }
  friend bool operator==(const Tag& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const Tag& a, std::string_view b) { return a.str() == b; }
  friend std::string operator+(const Tag& a, const char* b) { return a.str() + b; }
  friend std::ostream& operator<<(std::ostream& os, const Tag& t) { return os << t.str(); }

 private:
  const std::string* s_ = nullptr;  // nullptr = empty
};

}  // namespace flux::workload

template <>
struct fmt::formatter<flux::workload::Tag> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const flux::workload::Tag& t, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(t.str(), ctx);
  }
};
