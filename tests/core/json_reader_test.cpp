#include "core/json_reader.hpp"

#include <gtest/gtest.h>

namespace flux {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(is_utf8(""));
  EXPECT_TRUE(is_utf8("attn layer 3"));
  EXPECT_TRUE(is_utf8("\xc3\xa9t\xc3\xa9"));  // été
  EXPECT_TRUE(is_utf8("\xe2\x82\xac"));       // U+20AC
  EXPECT_TRUE(is_utf8("\xf0\x9f\x98\x80"));   // U+1F600
  EXPECT_TRUE(is_utf8("\xf4\x8f\xbf\xbf"));   // U+10FFFF, the last code point
}

TEST(Utf8, RejectsWhatJsonCannotCarry) {
  EXPECT_FALSE(is_utf8("M\xff"));             // not a lead byte
  EXPECT_FALSE(is_utf8("\x80"));              // a lone continuation byte
  EXPECT_FALSE(is_utf8("\xc3"));              // truncated
  EXPECT_FALSE(is_utf8("\xc3("));             // bad continuation
  EXPECT_FALSE(is_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(is_utf8("\xe0\x80\xaf"));      // overlong, 3 bytes
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));      // a UTF-16 surrogate
  EXPECT_FALSE(is_utf8("\xf4\x90\x80\x80"));  // beyond U+10FFFF
}

}  // namespace
}  // namespace flux
