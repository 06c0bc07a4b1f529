#include "core/units.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace flux {
namespace {

TEST(Units, TimeOrTauTakesADurationOrAMultipleOfTau) {
  const TimeOrTau a = parse_time_or_tau("100tau"), b = parse_time_or_tau("2ms"),
                  c = parse_time_or_tau("1.5 τ");
  EXPECT_TRUE(a.in_tau);
  EXPECT_DOUBLE_EQ(a.seconds(1e-5), 1e-3);
  EXPECT_FALSE(b.in_tau);
  EXPECT_DOUBLE_EQ(b.seconds(1e-5), 2e-3);
  EXPECT_DOUBLE_EQ(c.seconds(2.0), 3.0);
  for (const char* bad : {"100", "1e2", "", "tau", "-1tau", "xtau", "5 parsecs"})
    EXPECT_THROW((void)parse_time_or_tau(bad, "--bvn-frame"), InputError) << bad;
}

TEST(Units, ParsesTimes) {
  EXPECT_DOUBLE_EQ(parse_time("10us"), 1e-5);
  EXPECT_DOUBLE_EQ(parse_time("1ms"), 1e-3);
  EXPECT_DOUBLE_EQ(parse_time("2.5s"), 2.5);
  EXPECT_DOUBLE_EQ(parse_time("0.04"), 0.04);
  EXPECT_DOUBLE_EQ(parse_time("3ns"), 3e-9);
  EXPECT_DOUBLE_EQ(parse_time("10 \xC2\xB5s"), 1e-5);
}

TEST(Units, ParsesRatesInBitsAndBytes) {
  EXPECT_DOUBLE_EQ(parse_rate("800Gbps"), 1e11);
  EXPECT_DOUBLE_EQ(parse_rate("100GB/s"), 1e11);
  EXPECT_DOUBLE_EQ(parse_rate("8bps"), 1.0);
}

TEST(Units, ParsesSizes) {
  EXPECT_DOUBLE_EQ(parse_bytes("16MiB"), 16.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_bytes("1GB"), 1e9);
  EXPECT_DOUBLE_EQ(parse_bytes("512"), 512.0);
}

TEST(Units, RejectsGarbageWithTheOptionName) {
  for (const char* bad : {"", "abc", "-1ms", "10xs", "nan", "inf", "1e999s"}) {
    try {
      (void)parse_time(bad, "--delta");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--delta");
    }
  }
}

TEST(Units, PrintsHumanUnitsThatParseBack) {
  EXPECT_EQ(format_time(1e-5), "10us");
  EXPECT_EQ(format_time(1e-3), "1ms");
  EXPECT_EQ(format_rate(1e11), "800Gbps");
  EXPECT_EQ(format_bytes(16.0 * 1024 * 1024), "16MiB");
  for (double t : {1e-9, 3.5e-6, 0.02, 7.0}) EXPECT_NEAR(parse_time(format_time(t)), t, t * 1e-3);
}

}  // namespace
}  // namespace flux
