#include "core/enum_names.hpp"

#include <gtest/gtest.h>

namespace flux {
namespace {

enum class Colour { red, green, blue };

constexpr EnumNames kColours{EnumName{Colour::red, "red"}, EnumName{Colour::green, "green"},
                             EnumName{Colour::blue, "blue"}};

// The same table names a value and reads it back.
TEST(EnumNames, NamesAndFindsEveryValueBothWays) {
  for (const auto& e : kColours.entries()) {
    EXPECT_TRUE(kColours.find(kColours.name(e.value)) == e.value);
  }
  static_assert(kColours.find("green") == Colour::green);
  EXPECT_EQ(std::string(kColours.name(Colour::blue)), "blue");
  EXPECT_FALSE(kColours.find("Blue").has_value());
  EXPECT_FALSE(kColours.find("").has_value());
}

TEST(EnumNames, ChoicesListEveryNameForAnErrorMessage) {
  EXPECT_EQ(kColours.choices(), "'red', 'green' or 'blue'");
  constexpr EnumNames two{EnumName{Colour::red, "red"}, EnumName{Colour::blue, "blue"}};
  EXPECT_EQ(two.choices('"'), "\"red\" or \"blue\"");
}

}  // namespace
}  // namespace flux
