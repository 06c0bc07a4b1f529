#include "core/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace flux {
namespace {

// A renderer's stream and clock, both under the test's control.
struct Capture {
  std::string text;
  double now = 100.0;
  ProgressWrite write() {
    return [this](std::string_view s) { text += s; };
  }
  ProgressClock clock() {
    return [this] { return now; };
  }
  long count(char c) const { return std::count(text.begin(), text.end(), c); }
};

TEST(ProgressTest, PlainPrintsOneLineForEachFinishedStageAndNoCarriageReturn) {
  Capture c;
  PlainProgress p(c.write(), c.clock());
  {
    ProgressStage cells(p, "bench", 4);
    for (int i = 0; i < 4; ++i) {
      {
        ProgressStage search(p, "search");
        c.now += 1.5;
        search.update(10 * i, "incumbent 3ms");
      }
      cells.advance();  // `cells` is the innermost open stage again
    }
  }
  EXPECT_EQ(c.count('\r'), 0) << c.text;
  EXPECT_EQ(c.count('\x1b'), 0) << c.text;
  EXPECT_EQ(c.count('\n'), 5) << c.text;
  EXPECT_NE(c.text.find("bench 2/4 > search 20 done in 1.5s; incumbent 3ms\n"), std::string::npos)
      << c.text;
  EXPECT_NE(c.text.find("bench 4/4 (100%) done in 6.0s\n"), std::string::npos) << c.text;
}

TEST(ProgressTest, PlainPrintsNothingForAStageAnErrorStopped) {
  Capture c;
  PlainProgress p(c.write(), c.clock());
  EXPECT_THROW(
      {
        ProgressStage s(p, "milp", 3);
        s.update(1);
        throw std::runtime_error("bad input");
      },
      std::runtime_error);
  EXPECT_EQ(c.text, "");
}

TEST(ProgressTest, TerminalRedrawsInPlaceAtMostOncePerInterval) {
  Capture c;
  TerminalProgress p(
      c.write(), c.clock(), [] { return 200; }, 0.1);
  ProgressStage cells(p, "cells", 100);  // drawn at once
  const long first = c.count('\r');
  EXPECT_EQ(first, 1) << c.text;
  for (int i = 1; i <= 50; ++i) {
    c.now += 0.01;  // 50 updates over 0.5 s: about 5 redraws
    cells.update(i);
  }
  const long redraws = c.count('\r') - first;
  EXPECT_GE(redraws, 4);
  EXPECT_LE(redraws, 6);
  EXPECT_EQ(c.count('\n'), 0) << "a live line never scrolls";
  // ETA from the rate so far: 50 cells in 0.5 s, 50 to go.
  EXPECT_NE(c.text.find("cells 50/100 (50%) ETA 0.5s"), std::string::npos) << c.text;
  cells.finish("all good");
  EXPECT_TRUE(c.text.ends_with("\rcells 50/100 (50%) done in 0.5s; all good\x1b[K\n")) << c.text;
}

TEST(ProgressTest, TerminalShowsNestedStagesOnOneLineCutToTheWidth) {
  Capture c;
  TerminalProgress p(
      c.write(), c.clock(), [] { return 40; }, 0.0);
  ProgressStage outer(p, "bench", 8);
  {
    ProgressStage inner(p, "MILP windows", 5);
    inner.update(2, "incumbent 1.25ms bound 1.1ms gap 12%");
    const std::string last = c.text.substr(c.text.rfind('\r'));
    EXPECT_EQ(last, "\rbench 0/8 (0%) > MILP windows 2/5 (40%)\x1b[K");  // 39 columns
  }
  EXPECT_EQ(c.count('\n'), 1) << "the inner stage's end is logged, whole";
  EXPECT_NE(c.text.find("\rbench 0/8 > MILP windows 2/5 (40%) done in 0.0s; incumbent 1.25ms "
                        "bound 1.1ms gap 12%\x1b[K\n"),
            std::string::npos)
      << c.text;
}

TEST(ProgressTest, TerminalLogsTheEndsOfTheTwoOuterLevelsOnly) {
  Capture c;
  TerminalProgress p(
      c.write(), c.clock(), [] { return 200; }, 0.0);
  {
    ProgressStage cells(p, "cells", 2);
    for (int i = 0; i < 2; ++i) {
      {
        ProgressStage flux(p, "flux");
        { ProgressStage milp(p, "MILP"); }  // third level: the live line only
        flux.finish("gap 2%");
      }
      cells.advance();
    }
  }
  EXPECT_EQ(c.count('\n'), 3) << c.text;
  EXPECT_NE(c.text.find("\rcells 1/2 > flux done in 0.0s; gap 2%\x1b[K\n"), std::string::npos)
      << c.text;
  EXPECT_EQ(c.text.find("MILP done"), std::string::npos) << c.text;
  EXPECT_TRUE(c.text.ends_with("\rcells 2/2 (100%) done in 0.0s\x1b[K\n")) << c.text;
}

TEST(ProgressTest, TerminalErasesItsLineWhenAnErrorStopsTheStageOrOnHide) {
  Capture c;
  TerminalProgress p(
      c.write(), c.clock(), [] { return 80; }, 0.0);
  try {
    ProgressStage s(p, "simulate", 1e-3, ProgressUnit::seconds);
    s.update(5e-4);
    EXPECT_NE(c.text.find("simulate 500us/1ms (50%)"), std::string::npos) << c.text;
    p.hide();
    EXPECT_TRUE(c.text.ends_with("\r\x1b[K"));
    s.update(6e-4);
    throw std::runtime_error("x");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(c.text.ends_with("\r\x1b[K")) << c.text;
  EXPECT_EQ(c.count('\n'), 0);
}

// Accepts every call and writes nothing anywhere.
TEST(ProgressTest, NoProgressAcceptsEverythingAndPrintsNothing) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  {
    ProgressStage s(no_progress(), "x", 2);
    s.update(1, "y");
    s.advance();
    s.finish("done");
    no_progress().hide();
  }
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace flux
