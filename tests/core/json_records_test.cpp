#include "core/json_records.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"

namespace flux {
namespace {

// A document with a header member "n" and two arrays of integers, "a" then "b". Records are
// logged as "<pointer>=<value>"; a record above the header's n is an error at its pointer.
struct Reading {
  std::vector<std::string> log;
  std::size_t left_in_a = 0;  // records of "a" left in the returned root

  explicit Reading(const std::string& text) {
    std::int64_t n = -1;
    const auto record = [&](const JsonNode& r) {
      const std::int64_t v = r.integer(0, n);
      log.push_back(r.pointer() + "=" + std::to_string(v));
    };
    JsonRecordReader reader("d.json", {"n"},
                            [&](const JsonNode& root) { n = root["n"].integer(0, 100); },
                            {{"a", "an array of a", record}, {"b", "an array of b", record}});
    left_in_a = reader.read(text)["a"].size();
  }
};

std::string error_of(const std::string& text) {
  try {
    (void)Reading(text);
  } catch (const InputError& e) {
    return e.field() + ": " + e.what();
  }
  return "no error";
}

const std::vector<std::string> kLog = {"/a/0=1", "/a/1=2", "/b/0=3"};

TEST(JsonRecords, ReadsRecordsAsParsedWhenTheHeaderComesFirst) {
  const Reading r(R"({"n": 9, "a": [1, 2], "x": {"a": [7]}, "b": [3]})");
  EXPECT_EQ(r.log, kLog);
  EXPECT_EQ(r.left_in_a, 0u);  // dropped as read
}

// Header last, or "b" before "a": read from the DOM, in the same order, with the same result.
TEST(JsonRecords, ReadsOtherOrdersFromTheWholeDocument) {
  const Reading late_header(R"({"a": [1, 2], "b": [3], "n": 9})");
  EXPECT_EQ(late_header.log, kLog);
  EXPECT_EQ(late_header.left_in_a, 2u);
  EXPECT_EQ(Reading(R"({"n": 9, "b": [3], "a": [1, 2]})").log, kLog);
}

TEST(JsonRecords, NamesTheSameFirstErrorInEveryOrder) {
  for (const char* text :
       {R"({"n": 1, "a": [1, 5], "b": [7]})", R"({"b": [7], "a": [1, 5], "n": 1})"})
    EXPECT_NE(error_of(text).find("/a/1: "), std::string::npos) << text << " " << error_of(text);
  for (const char* text : {R"({"n": -1, "a": [5]})", R"({"a": [5], "n": -1})"})
    EXPECT_NE(error_of(text).find("/n: "), std::string::npos) << text;
  EXPECT_NE(error_of(R"({"n": 1, "a": 5, "b": []})").find("/a: expected an array of a, got 5"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"n": 1, "a": []})").find("/b: required field is missing"),
            std::string::npos);
}

TEST(JsonRecords, RejectsAMemberGivenTwice) {
  EXPECT_NE(error_of(R"({"n": 1, "a": [], "a": [], "b": []})").find("/a: expected one such field"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"n": 1, "a": [], "b": [], "n": 2})").find("/n: expected one such field"),
            std::string::npos);
}

}  // namespace
}  // namespace flux
