#include "core/short_decimal.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace flux {
namespace {

// What the libraries write for `v`, and what write_short_decimal writes ("" where it declines).
std::string by_fmt(double v) {
  return fmt::format("{}", v);
}
std::string by_nlohmann(double v) {
  return nlohmann::json(v).dump();
}
std::string fast(double v, WholeNumber whole) {
  char buf[40];
  char* end = write_short_decimal(buf, v, whole);
  return end == nullptr ? "" : std::string(buf, end);
}

// Every value the fast path takes is written exactly as both libraries write it.
void expect_same(double v, int& taken) {
  const std::string bare = fast(v, WholeNumber::bare), point = fast(v, WholeNumber::point_zero);
  ASSERT_EQ(bare.empty(), point.empty()) << v;
  if (bare.empty()) return;
  ++taken;
  ASSERT_EQ(bare, by_fmt(v)) << fmt::format("{:.17g}", v);
  ASSERT_EQ(point, by_nlohmann(v)) << fmt::format("{:.17g}", v);
}

TEST(ShortDecimal, WholePicosecondsAsSecondsAndMicrosecondsMatchFmtAndNlohmann) {
  std::mt19937_64 rng(7);
  int taken = 0, tried = 0;
  for (std::int64_t most : {std::int64_t{1000}, std::int64_t{1'000'000'000},
                            std::int64_t{100'000'000'000'000}, std::int64_t{999'999'999'999'999}}) {
    std::uniform_int_distribution<std::int64_t> ps(-most, most);
    for (int i = 0; i < 50'000; ++i) {
      const std::int64_t t = ps(rng);
      for (double v : {static_cast<double>(t) / 1e12, static_cast<double>(t) / 1e6,
                       static_cast<double>(t), static_cast<double>(t) / 1e12 * 1e6}) {
        expect_same(v, taken);
        ++tried;
      }
    }
  }
  // Nearly all of them are taken (the rest fall back to the libraries).
  EXPECT_GT(taken, tried * 3 / 4);
}

TEST(ShortDecimal, EdgesOfEachNotationMatch) {
  int taken = 0;
  std::vector<double> values = {0.0,    1.0,   -1.0,   0.5,   1e-4,  1e-5,   9.99e-5, 1.5e-5,
                                0.0001, 0.001, 123.0,  1e14,  1e15,  9.5e14, 1e-12,   1e-13,
                                2.0,    0.25,  1024.0, 2e-12, 0.1,   0.2,    0.3,     1e-6,
                                -0.0,   1.0e9, 4.5e-7, 65536, 1e300, 5e-324, -2.5e-5};
  for (int e = -50; e < 60; ++e) values.push_back(std::ldexp(1.0, e));  // powers of two
  for (double v : values) expect_same(v, taken);
  EXPECT_EQ(fast(-0.0, WholeNumber::bare), "");  // left to the library ("-0")
  EXPECT_EQ(fast(std::numeric_limits<double>::quiet_NaN(), WholeNumber::bare), "");
  EXPECT_EQ(fast(1e15, WholeNumber::bare), "");  // 16 digits
  EXPECT_EQ(fast(0.0, WholeNumber::point_zero), "0.0");
  EXPECT_EQ(fast(123.0, WholeNumber::point_zero), "123.0");
  EXPECT_EQ(fast(1.5e-5, WholeNumber::bare), "1.5e-05");
  EXPECT_GT(taken, 40);
}

TEST(ShortDecimal, ArbitraryDoublesAreTakenOnlyWhenTheyMatch) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1e6, 1e6);
  int taken = 0;
  for (int i = 0; i < 200'000; ++i) expect_same(u(rng), taken);  // asserts on what it takes
}

}  // namespace
}  // namespace flux
