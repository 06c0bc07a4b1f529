#include "milp/model_io.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "milp/backend.hpp"

namespace flux::milp {
namespace {

Model small() {
  Model m;
  const int a = m.add_column("a", 0, 4, 1.0, false);
  const int b = m.add_column("b", 0, 1, -2.0, true);
  m.add_row("r1", {a, b}, {1.0, 3.0}, '>', 2.0);
  m.add_row("r2", {a}, {1.0}, '<', 3.5);
  return m;
}

TEST(MilpModelIo, WritesLpAndMps) {
  Model m = small();
  m.title = "a test model";
  const std::string lp = write_lp(m);
  EXPECT_EQ(lp.rfind("\\ a test model\nMinimize\n", 0), 0u) << lp;
  EXPECT_NE(lp.find("r1: + 1 a + 3 b >= 2"), std::string::npos) << lp;
  EXPECT_NE(lp.find("Generals\n b\n"), std::string::npos) << lp;
  const std::string mps = write_mps(m);
  EXPECT_NE(mps.find(" G  r1"), std::string::npos) << mps;
  EXPECT_NE(mps.find("'INTORG'"), std::string::npos) << mps;
  EXPECT_NE(mps.find("RHS  r2  3.5"), std::string::npos) << mps;
  EXPECT_EQ(mps.find("OBJSENSE"), std::string::npos) << mps;
  const Result r = CbcBackend().solve(m, {});
  ASSERT_EQ(r.status, Status::optimal);
  EXPECT_NEAR(r.objective, -2.0, 1e-9);  // b = 1 meets r1 alone, a = 0
}

TEST(MilpModelIo, WritesTheObjectiveSense) {
  Model m = small();
  m.sense = Sense::maximize;
  EXPECT_EQ(write_lp(m).rfind("Maximize\n", 0), 0u);
  EXPECT_NE(write_mps(m).find("OBJSENSE\n    MAX\n"), std::string::npos);
}

TEST(MilpModelIo, ReadsSolutionsAndRejectsWrongOnes) {
  const Model m = small();
  const auto x = read_solution(m, "# a comment\nObjective 1\na 0.5\nb 1\n", "sol");
  EXPECT_EQ(x, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(read_solution(m, "Optimal - objective value -2\n      1 b 1 0\n", "sol"),
            (std::vector<double>{0.0, 1.0}));  // CBC's: index, name, value, reduced cost
  EXPECT_THROW((void)read_solution(m, "c 1\n", "sol"), InputError);         // not a column
  EXPECT_THROW((void)read_solution(m, "", "sol"), InputError);              // no values
  EXPECT_THROW((void)read_solution(m, "a 1\n", "sol"), InputError);         // r1 violated
  EXPECT_THROW((void)read_solution(m, "b 0.5\na 1\n", "sol"), InputError);  // b fractional
}

}  // namespace
}  // namespace flux::milp
