#pragma once
// One table per enum of the names its values have in files and on the command line, serving both
// directions: echoing a value (to_string) and reading one back (find), so the two cannot drift
// apart. Tables are small (a handful of names): lookups are linear.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace flux {

template <class E>
struct EnumName {
  E value;
  const char* name;
};
// Spelled out: clang before 17 does not deduce an aggregate's template arguments by itself.
template <class E>
EnumName(E, const char*) -> EnumName<E>;

template <class E, std::size_t N>
class EnumNames {
 public:
  template <class... More>
  constexpr explicit EnumNames(EnumName<E> first, More... more) : entries_{first, more...} {}

  // The value's name; every value of the enum must be in the table.
  [[nodiscard]] constexpr const char* name(E value) const {
    for (const EnumName<E>& e : entries_)
      if (e.value == value) return e.name;
    return "?";
  }

  [[nodiscard]] constexpr std::optional<E> find(std::string_view name) const {
    for (const EnumName<E>& e : entries_)
      if (name == e.name) return e.value;
    return std::nullopt;
  }

  // The names for an error message, each between `quote`s: "'a' or 'b'", "'a', 'b' or 'c'".
  [[nodiscard]] std::string choices(char quote = '\'') const {
    std::string out;
    for (std::size_t k = 0; k < N; ++k) {
      if (k > 0) out += k + 1 == N ? " or " : ", ";
      out += quote;
      out += entries_[k].name;
      out += quote;
    }
    return out;
  }

  [[nodiscard]] constexpr const std::array<EnumName<E>, N>& entries() const { return entries_; }

 private:
  std::array<EnumName<E>, N> entries_;
};

template <class E, class... More>
EnumNames(EnumName<E>, More...) -> EnumNames<E, 1 + sizeof...(More)>;

}  // namespace flux
