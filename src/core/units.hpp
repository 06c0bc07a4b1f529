#pragma once
// Human units on the command line and in printed output; files always hold SI base units
// (seconds, bytes, bytes per second). A bare number means the base unit.
#include <string>
#include <string_view>

namespace flux {

// `what` names the option in errors, e.g. "--delta".
double parse_time(std::string_view text, std::string_view what = "time");   // "10us" -> 1e-5
double parse_rate(std::string_view text, std::string_view what = "rate");   // "800Gbps" -> 1e11 B/s
double parse_bytes(std::string_view text, std::string_view what = "size");  // "16MiB" -> 16777216

// A length that is either a duration ("5ms") or a multiple of the reconfiguration delay τ
// ("100tau", "100τ"), for options that should follow τ through a sweep. A bare number is neither
// and is rejected, so that an old "100" (meaning 100 τ) is never read as 100 seconds.
struct TimeOrTau {
  double value = 0.0;  // seconds, or a multiple of τ
  bool in_tau = false;
  [[nodiscard]] double seconds(double tau) const { return in_tau ? value * tau : value; }
};
TimeOrTau parse_time_or_tau(std::string_view text, std::string_view what = "time");

std::string format_time(double seconds);           // 1e-5 -> "10us"
std::string format_rate(double bytes_per_second);  // 1e11 -> "800Gbps"
std::string format_bytes(double bytes);            // 16777216 -> "16MiB"

}  // namespace flux
