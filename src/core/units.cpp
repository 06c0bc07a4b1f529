#include "core/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace flux {
namespace {

struct Unit {
  std::string_view suffix;
  double factor;
};

// Longest suffixes first so that "ms" is not read as "s".
constexpr std::array kTimeUnits{Unit{"min", 60.0},       Unit{"ms", 1e-3}, Unit{"us", 1e-6},
                                Unit{"\xC2\xB5s", 1e-6}, Unit{"ns", 1e-9}, Unit{"ps", 1e-12},
                                Unit{"s", 1.0}};
constexpr std::array kRateUnits{
    Unit{"Tbps", 1e12 / 8}, Unit{"Gbps", 1e9 / 8}, Unit{"Mbps", 1e6 / 8}, Unit{"Kbps", 1e3 / 8},
    Unit{"kbps", 1e3 / 8},  Unit{"bps", 1.0 / 8},  Unit{"TB/s", 1e12},    Unit{"GB/s", 1e9},
    Unit{"MB/s", 1e6},      Unit{"kB/s", 1e3},     Unit{"KB/s", 1e3},     Unit{"B/s", 1.0},
    Unit{"TBps", 1e12},     Unit{"GBps", 1e9},     Unit{"MBps", 1e6},     Unit{"Bps", 1.0}};
constexpr std::array kByteUnits{Unit{"TiB", 1099511627776.0},
                                Unit{"GiB", 1073741824.0},
                                Unit{"MiB", 1048576.0},
                                Unit{"KiB", 1024.0},
                                Unit{"TB", 1e12},
                                Unit{"GB", 1e9},
                                Unit{"MB", 1e6},
                                Unit{"kB", 1e3},
                                Unit{"KB", 1e3},
                                Unit{"B", 1.0}};

template <std::size_t N>
double parse_with(std::string_view text, std::string_view what, const std::array<Unit, N>& units,
                  std::string_view example) {
  std::string s(text);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  double factor = 1.0;
  for (const Unit& u : units) {
    if (s.size() > u.suffix.size() &&
        s.compare(s.size() - u.suffix.size(), u.suffix.size(), u.suffix) == 0) {
      factor = u.factor;
      s.resize(s.size() - u.suffix.size());
      break;
    }
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  char* end = nullptr;
  const double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || v < 0)
    throw InputError(
        "", std::string(what),
        fmt::format("expected a non-negative quantity such as '{}', got '{}'", example, text));
  return v * factor;
}

// Picks the largest unit that keeps the mantissa >= 1 and prints up to 4 significant digits.
template <std::size_t N>
std::string format_with(double v, const std::array<Unit, N>& units, std::string_view base) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  if (v == 0) return fmt::format("0{}", base);
  for (const Unit& u : units) {
    if (std::abs(v) >= u.factor * (1 - 1e-12))
      return fmt::format("{:.4g}{}", v / u.factor, u.suffix);
  }
  const Unit& smallest = units.back();
  return fmt::format("{:.4g}{}", v / smallest.factor, smallest.suffix);
}

}  // namespace

double parse_time(std::string_view text, std::string_view what) {
  return parse_with(text, what, kTimeUnits, "10us");
}
double parse_rate(std::string_view text, std::string_view what) {
  return parse_with(text, what, kRateUnits, "800Gbps");
}
double parse_bytes(std::string_view text, std::string_view what) {
  return parse_with(text, what, kByteUnits, "16MiB");
}

TimeOrTau parse_time_or_tau(std::string_view text, std::string_view what) {
  auto fail = [&] {
    return InputError("", std::string(what),
                      fmt::format("a duration such as '5ms' or a multiple of the reconfiguration "
                                  "delay such as '100tau', got '{}'",
                                  text));
  };
  std::string_view s = text;
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  for (std::string_view tau : {"tau", "\xCF\x84"})  // "τ" in UTF-8
    if (s.size() > tau.size() && s.substr(s.size() - tau.size()) == tau) {
      std::string number(s.substr(0, s.size() - tau.size()));
      while (!number.empty() && number.back() == ' ') number.pop_back();
      char* end = nullptr;
      const double v = number.empty() ? NAN : std::strtod(number.c_str(), &end);
      if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(v) || v < 0)
        throw fail();
      return {v, true};
    }
  if (s.empty() || s.find_first_not_of("0123456789.+-eE") == std::string_view::npos) throw fail();
  try {
    return {parse_time(s, what), false};
  } catch (const InputError&) {
    throw fail();
  }
}

std::string format_time(double seconds) {
  static constexpr std::array units{Unit{"s", 1.0}, Unit{"ms", 1e-3}, Unit{"us", 1e-6},
                                    Unit{"ns", 1e-9}, Unit{"ps", 1e-12}};
  return format_with(seconds, units, "s");
}

std::string format_rate(double bytes_per_second) {
  static constexpr std::array units{Unit{"Tbps", 1e12 / 8}, Unit{"Gbps", 1e9 / 8},
                                    Unit{"Mbps", 1e6 / 8}, Unit{"Kbps", 1e3 / 8},
                                    Unit{"bps", 1.0 / 8}};
  return format_with(bytes_per_second, units, "bps");
}

std::string format_bytes(double bytes) {
  static constexpr std::array units{Unit{"TiB", 1099511627776.0}, Unit{"GiB", 1073741824.0},
                                    Unit{"MiB", 1048576.0}, Unit{"KiB", 1024.0}, Unit{"B", 1.0}};
  return format_with(bytes, units, "B");
}

}  // namespace flux
