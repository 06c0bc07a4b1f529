#include "report/csv_reader.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "core/error.hpp"
#include "report/csv.hpp"

namespace flux::report {
namespace {

TEST(CsvReader, ReadsBackWhatTheWriterQuotes) {
  // A task name with a comma, quotes and a newline survives a round trip through the writer.
  const std::string name = "aten::mm, \"fused\"\nop";
  std::string text = csv_record("task", "name", "bytes");
  append_csv_record(text, 7, name, 4194304);
  append_csv_record(text, 8, "plain", 1.5);
  CsvTable t(text, "flows.csv");
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.text(0, t.column("name")), name);
  EXPECT_EQ(t.integer(0, t.column("task"), 0, 10), 7);
  EXPECT_DOUBLE_EQ(t.number(1, t.column("bytes")), 1.5);
  EXPECT_TRUE(t.has_column("bytes"));
  EXPECT_FALSE(t.has_column("missing"));
}

TEST(CsvReader, AcceptsCrLfAndAMissingFinalNewline) {
  CsvTable t("a,b\r\n1,2\r\n3,4", "x.csv");
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.text(1, 1), "4");
}

// Errors name the file, the line and what was expected.
void expect_error(const std::string& text, const std::string& needle,
                  const std::function<void(const CsvTable&)>& use = nullptr) {
  try {
    CsvTable t(text, "in.csv");
    if (use) use(t);
    FAIL() << "no error for: " << text;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("in.csv"), std::string::npos) << e.what();
  }
}

TEST(CsvReader, BadInputNamesTheLine) {
  expect_error("", "a CSV header");
  expect_error("a,b\n1,2\n3\n", "line 3");
  expect_error("a,b\n\"1,2\n", "closing quote");
  expect_error("a,b\n1,x\n", "line 2, column b", [](const CsvTable& t) { (void)t.number(0, 1); });
  expect_error("a,b\n1,nan\n", "finite", [](const CsvTable& t) { (void)t.number(0, 1); });
  expect_error("a,b\n1,2\n", "in [0, 1]", [](const CsvTable& t) { (void)t.integer(0, 1, 0, 1); });
  expect_error("a,b\n1,2\n", "column named \"c\"", [](const CsvTable& t) { (void)t.column("c"); });
}

}  // namespace
}  // namespace flux::report
