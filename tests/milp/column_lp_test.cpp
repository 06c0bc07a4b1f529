// The column LP on a covering problem solved by hand: optimum, primal feasibility, duals that
// certify it (dual feasible and equal objective), warm re-solves after adding and disabling
// columns, and infeasibility once a row has no enabled column left.
#include "milp/column_lp.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace flux::milp {
namespace {

constexpr double kTol = 1e-7;

struct Column {
  std::vector<int> rows;
  double cost;
};

// x feasible, y dual feasible for the enabled columns, and b·y = c·x = objective.
void expect_certified(const ColumnLp& lp, const std::vector<double>& b,
                      const std::vector<Column>& cols, const std::vector<char>& enabled) {
  ASSERT_EQ(lp.values().size(), cols.size());
  ASSERT_EQ(lp.duals().size(), b.size());
  std::vector<double> cover(b.size(), 0.0);
  double primal = 0.0, dual = 0.0;
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const double x = lp.values()[j];
    EXPECT_GE(x, -kTol);
    if (!enabled[j]) {
      EXPECT_NEAR(x, 0.0, kTol) << j;
    }
    primal += cols[j].cost * x;
    double priced = 0.0;
    for (const int r : cols[j].rows) {
      cover[static_cast<std::size_t>(r)] += x;
      priced += lp.duals()[static_cast<std::size_t>(r)];
    }
    if (enabled[j]) {
      EXPECT_LE(priced, cols[j].cost + kTol) << j;  // reduced cost >= 0
    }
  }
  for (std::size_t r = 0; r < b.size(); ++r) {
    EXPECT_GE(cover[r], b[r] - kTol) << r;
    EXPECT_GE(lp.duals()[r], 0.0);
    dual += b[r] * lp.duals()[r];
  }
  EXPECT_NEAR(primal, lp.objective(), kTol);
  EXPECT_NEAR(dual, lp.objective(), kTol);
}

TEST(ColumnLp, SingletonsThenAWarmAddedColumnThenDisabledOnes) {
  const std::vector<double> b = {1.0, 2.0, 1.0};
  std::vector<Column> cols = {{{0}, 1.0}, {{1}, 1.0}, {{2}, 1.0}};
  ColumnLp lp(b);
  for (const Column& c : cols) lp.add_column(c.rows, c.cost);
  std::vector<char> enabled(cols.size(), 1);
  ASSERT_TRUE(lp.solve());
  EXPECT_NEAR(lp.objective(), 4.0, kTol);  // every row on its own column
  expect_certified(lp, b, cols, enabled);

  cols.push_back({{0, 1, 2}, 1.0});  // serves all three rows at once: 2 on it covers everything
  enabled.push_back(1);
  EXPECT_EQ(lp.add_column(cols.back().rows, 1.0), 3);
  EXPECT_EQ(lp.columns(), 4);
  ASSERT_TRUE(lp.solve());
  EXPECT_NEAR(lp.objective(), 2.0, kTol);
  expect_certified(lp, b, cols, enabled);

  cols.push_back({{0, 1}, 1.0});  // ties with the triple; the optimum stays 2
  enabled.push_back(1);
  lp.add_column(cols.back().rows, 1.0);
  ASSERT_TRUE(lp.solve());
  EXPECT_NEAR(lp.objective(), 2.0, kTol);
  expect_certified(lp, b, cols, enabled);

  lp.disable(3);  // without the triple: {0,1} twice and {2} once
  enabled[3] = 0;
  ASSERT_TRUE(lp.solve());
  EXPECT_NEAR(lp.objective(), 3.0, kTol);
  expect_certified(lp, b, cols, enabled);

  lp.disable(2);  // row 2 has no enabled column left
  EXPECT_FALSE(lp.solve());
}

TEST(ColumnLp, CostsWeighTheColumns) {
  const std::vector<double> b = {1.0, 1.0};
  const std::vector<Column> cols = {{{0, 1}, 3.0}, {{0}, 1.0}, {{1}, 1.0}};
  ColumnLp lp(b);
  for (const Column& c : cols) lp.add_column(c.rows, c.cost);
  ASSERT_TRUE(lp.solve());
  EXPECT_NEAR(lp.objective(), 2.0, kTol);  // the pair costs more than the two singletons
  EXPECT_NEAR(lp.values()[0], 0.0, kTol);
  expect_certified(lp, b, cols, std::vector<char>(cols.size(), 1));
}

}  // namespace
}  // namespace flux::milp
