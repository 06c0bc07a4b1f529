#pragma once
// The shortest round-trip text of a double that is n·10^-k (|n| < 10^15, k ≤ 12) correctly
// rounded, written straight from n's digits: output files hold millions of times that are whole
// picoseconds shown as seconds or microseconds, and byte counts, and running a float-to-text
// algorithm (grisu2, dragonbox) on each was the largest CPU cost of writing them after the
// kernel's own copying.
//
// Why n's digits are the answer: n·10^-k has at most 15 significant digits, and no two decimals
// of at most 15 significant digits round to the same double, so it is the only shortest decimal
// that reads back as v — the one any shortest round-trip algorithm (fmt's dragonbox) writes.
// nlohmann's grisu2 searches a slightly narrowed interval around v, so the decimal is used only
// where it also lies well inside that (checked exactly, in 128-bit integers). Every other value
// is left to the caller's own algorithm. O(digits).
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace flux {

inline constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

// How a value whose magnitude lies between 10^-4 and 10^15 shows as a whole number.
enum class WholeNumber { bare, point_zero };  // fmt's "{}": "12"; nlohmann's dump(): "12.0"

namespace detail {

// Whether n·10^-k lies so far inside the rounding interval of v = double(n)/10^k that grisu2's
// narrowed interval (a few 2^-64 of v from its ends) holds it too: within 15/32 of an ulp above v,
// and 15/32 (7/32 where v is a power of two: the gap below it is half as wide) below it.
inline bool well_inside(std::int64_t n, int k, double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0 || biased == 0x7ff) return false;  // zero, subnormal, infinite
  const std::uint64_t frac = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t m = frac | (std::uint64_t{1} << 52);
  const int e = biased - 1075;          // v = m·2^e
  if (e > 0 || e < -110) return false;  // |v| ≥ 10^-12: the shift below stays under 2^128
  using U = unsigned __int128;
  const auto pow10 = static_cast<std::uint64_t>(kPow10[k]);
  const U mag =
      static_cast<U>(n < 0 ? -static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n));
  const U x = mag << -e;  // |n|·2^-e: n·10^-k in units of 2^e / 10^k
  const U y = static_cast<U>(m) * pow10;
  const bool above = x >= y;  // |x| ≥ |v|
  const U d = above ? x - y : y - x;
  const U gap = (!above && frac == 0 && biased > 1) ? 7 : 15;
  return d * 32 <= gap * pow10;
}

// Removes mag's trailing zeros (mag ≥ 1, under 10^15: at most 14 of them) by 8, 4, 2 and 1.
inline void strip_trailing_zeros(std::uint64_t& mag, int& exp10) {
  for (int zeros : {8, 4, 2, 1}) {
    const auto unit = static_cast<std::uint64_t>(kPow10[zeros]);
    if (mag % unit == 0) mag /= unit, exp10 += zeros;
  }
}

inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the decimal digits of mag (1 ≤ mag < 10^15) two at a time from the right; returns how
// many.
inline int write_digits(char* out, std::uint64_t mag) {
  int len = 1;
  while (len < 15 && mag >= static_cast<std::uint64_t>(kPow10[len])) ++len;
  char* p = out + len;
  for (; p - out >= 2; mag /= 100) {
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * (mag % 100), 2);
  }
  if (p != out) *out = static_cast<char>('0' + mag);
  return len;
}

}  // namespace detail

// Writes the shortest round-trip text of `v` as fmt's "{}" (WholeNumber::bare) or nlohmann's
// dump() (WholeNumber::point_zero) write it, to `out` (at least 32 bytes free), and returns the
// end; or returns nullptr where v is no n·10^-k with |n| < 10^15 and k ≤ 12 (or lies too near
// the edge of its interval), and the caller must run its own algorithm.
inline char* write_short_decimal(char* out, double v, WholeNumber whole) {
  const double a = v < 0 ? -v : v;
  if (!(a >= 1e-12 && a < 1e15)) {  // zero, tiny, huge, NaN
    if (v != 0 || std::signbit(v)) return nullptr;
    const std::size_t size = whole == WholeNumber::bare ? 1 : 3;
    std::memcpy(out, "0.0", size);
    return out + size;
  }
  int k = 12;  // the most decimals that keep |n| = |v|·10^k under 10^15
  while (a * kPow10[k] >= 1e15) --k;
  // llround without its library call: |x| < 2^52, so x ± 0.5 is exact and truncating it rounds
  // half away from zero, as llround does.
  const double x = v * kPow10[k];
  const auto n = static_cast<std::int64_t>(x < 0 ? x - 0.5 : x + 0.5);
  if (n <= -1'000'000'000'000'000 || n >= 1'000'000'000'000'000 ||
      std::bit_cast<std::uint64_t>(static_cast<double>(n) / kPow10[k]) !=
          std::bit_cast<std::uint64_t>(v) ||
      !detail::well_inside(n, k, v))
    return nullptr;
  std::uint64_t mag = n < 0 ? static_cast<std::uint64_t>(-n) : static_cast<std::uint64_t>(n);
  int exp10 = -k;  // |v| = mag·10^exp10
  detail::strip_trailing_zeros(mag, exp10);
  char digits[16];
  const int len = detail::write_digits(digits, mag);
  if (n < 0) *out++ = '-';
  const int point = len + exp10;    // digits before the decimal point
  if (point > 15 || point <= -4) {  // 1.5e-05: both libraries' scientific form
    *out++ = digits[0];
    if (len > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, static_cast<std::size_t>(len - 1));
      out += len - 1;
    }
    int e = point - 1;
    *out++ = 'e';
    *out++ = e < 0 ? '-' : '+';
    e = e < 0 ? -e : e;
    if (e >= 100) *out++ = static_cast<char>('0' + e / 100);
    *out++ = static_cast<char>('0' + e / 10 % 10);
    *out++ = static_cast<char>('0' + e % 10);
    return out;
  }
  if (point >= len) {  // a whole number
    std::memcpy(out, digits, static_cast<std::size_t>(len));
    out += len;
    for (int i = len; i < point; ++i) *out++ = '0';
    if (whole == WholeNumber::point_zero) *out++ = '.', *out++ = '0';
    return out;
  }
  if (point > 0) {
    std::memcpy(out, digits, static_cast<std::size_t>(point));
    out += point;
    *out++ = '.';
    std::memcpy(out, digits + point, static_cast<std::size_t>(len - point));
    return out + (len - point);
  }
  *out++ = '0';
  *out++ = '.';
  for (int i = point; i < 0; ++i) *out++ = '0';
  std::memcpy(out, digits, static_cast<std::size_t>(len));
  return out + len;
}

}  // namespace flux
