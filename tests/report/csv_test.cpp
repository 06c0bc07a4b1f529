#include "report/csv.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "support/csv_reader.hpp"

namespace flux::report {
namespace {

using testing::parse_csv;

TEST(Csv, PlainFieldsAndNumbersAreWrittenAsTheyAre) {
  EXPECT_EQ(csv_record("task", 42, 2.5, -1, std::string("fwd")), "task,42,2.5,-1,fwd\n");
  EXPECT_EQ(csv_record(1e-6, 0.1), "1e-06,0.1\n");  // fmt's shortest round-trip form
  // Every integer width as fmt writes it; a bool and a float keep fmt's own forms.
  EXPECT_EQ(csv_record(std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::uint64_t>::max(), 0, true, 0.1f),
            fmt::format("{},{},{},{},{}\n", std::numeric_limits<std::int64_t>::min(),
                        std::numeric_limits<std::uint64_t>::max(), 0, true, 0.1f));
}

TEST(Csv, QuotesOnlyFieldsThatNeedIt) {
  EXPECT_EQ(csv_record("aten::mm, \"fused\" op", "x"), "\"aten::mm, \"\"fused\"\" op\",x\n");
  EXPECT_EQ(csv_record("a\nb", "c\rd", "\""), "\"a\nb\",\"c\rd\",\"\"\"\"\n");
  EXPECT_EQ(csv_record("", "  spaced  "), ",  spaced  \n");  // spaces are data, not quoted
}

TEST(Csv, RoundTripsThroughAnIndependentRfc4180Reader) {
  const std::vector<std::string> awkward = {"aten::mm, \"fused\" op",
                                            "",
                                            ",",
                                            "\"",
                                            "\"\"",
                                            "line\nbreak",
                                            "crlf\r\ninside",
                                            " leading and trailing ",
                                            "plain",
                                            "quote\"in the middle",
                                            "ends with a quote\""};
  std::string text = csv_record("id", "name", "bytes");
  for (std::size_t i = 0; i < awkward.size(); ++i) append_csv_record(text, i, awkward[i], 4096);
  const auto records = parse_csv(text);
  ASSERT_EQ(records.size(), awkward.size() + 1);
  EXPECT_EQ(records[0], (testing::CsvRecord{"id", "name", "bytes"}));
  for (std::size_t i = 0; i < awkward.size(); ++i)
    EXPECT_EQ(records[i + 1], (testing::CsvRecord{std::to_string(i), awkward[i], "4096"}))
        << "record " << i;
}

TEST(Csv, TestReaderRejectsWhatIsNotCsv) {
  // The reader must be able to fail, or the round trip above proves nothing.
  EXPECT_THROW((void)parse_csv("\"unterminated,1\n"), std::runtime_error);
  EXPECT_THROW((void)parse_csv("\"a\"b,1\n"), std::runtime_error);
  EXPECT_EQ(parse_csv("a,\"b,c\"\r\nd,e").size(), 2U);
}

}  // namespace
}  // namespace flux::report
