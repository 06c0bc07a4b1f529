#include "fabric/json_stream.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace flux::fabric {
namespace {

using Json = nlohmann::ordered_json;

// The text writer must give exactly what nlohmann's dump() gives, or every output file changes.
TEST(JsonObject, WritesWhatNlohmannDumps) {
  const std::string kLongKey(60, 'k');
  const double doubles[] = {0.0,
                            -0.0,
                            1.0,
                            100.0,
                            1e-5,
                            0.1,
                            123456.789,
                            1e15,
                            1e16,
                            1e21,
                            5e-324,
                            1.7976931348623157e308,
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity()};
  const std::string strings[] = {"plain",           "",     "a \"quoted\" \\ name",
                                 "tab\there\nline", "\x01", "héllo ünïcode"};
  for (double d : doubles)
    for (const std::string& s : strings) {
      std::string text;
      JsonObject e(text);
      e.field("d", d).field("i", std::int64_t{-9007199254740993}).field("s", s).field("n", 7);
      e.field(kLongKey, d);  // past the short keys written in one append
      e.object("args").field("u", std::size_t{18446744073709551615u}).close();
      JsonArray pieces = e.array("pieces");
      pieces.object().field("x", d).close();
      pieces.object().close();
      pieces.close();
      e.close();
      const Json expected = {{"d", d},
                             {"i", std::int64_t{-9007199254740993}},
                             {"s", s},
                             {"n", 7},
                             {kLongKey, d},
                             {"args", {{"u", std::size_t{18446744073709551615u}}}},
                             {"pieces", Json::array({Json{{"x", d}}, Json::object()})}};
      EXPECT_EQ(text, expected.dump()) << d << " " << s;
    }
}

TEST(JsonObject, RejectsInvalidUtf8LikeNlohmann) {
  std::string text;
  JsonObject e(text);
  EXPECT_THROW(e.field("s", std::string_view("\xff")), nlohmann::json::type_error);
}

TEST(JsonArrayWriter, StreamsTheSameArrayAsOneDump) {
  std::ostringstream out;
  Json all = Json::array();
  {
    JsonArrayWriter events(out);
    for (int i = 0; i < 60000; ++i) {  // more than one 1 MB chunk
      JsonObject(events.next()).field("i", i).field("t", i * 0.25).close();
      all.push_back({{"i", i}, {"t", i * 0.25}});
    }
    events.push_back(Json{{"last", true}});
    all.push_back({{"last", true}});
    events.finish();
  }
  EXPECT_EQ(out.str(), all.dump());
  std::ostringstream empty;
  JsonArrayWriter none(empty);
  none.finish();
  EXPECT_EQ(empty.str(), "[]");
}

}  // namespace
}  // namespace flux::fabric
