// Both backends on small models whose optimum is known by hand: status, objective, the bound on
// the right side of the objective, and the solution re-checked row by row here (not with
// Model::violation, which the backends use themselves).
#include "milp/backend.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

namespace flux::milp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTol = 1e-6;

// Every column within its bounds (integral where it must be) and every row activity, summed here,
// within the row's bounds.
void expect_feasible(const Model& m, const std::vector<double>& x) {
  ASSERT_EQ(static_cast<int>(x.size()), m.columns());
  for (int j = 0; j < m.columns(); ++j) {
    EXPECT_GE(x[j], m.lower[j] - kTol) << m.names[j];
    EXPECT_LE(x[j], m.upper[j] + kTol) << m.names[j];
    if (m.integer[j]) {
      EXPECT_NEAR(x[j], std::round(x[j]), kTol) << m.names[j];
    }
  }
  for (const auto& r : m.rows) {
    double sum = 0.0;
    for (std::size_t k = 0; k < r.cols.size(); ++k) sum += r.coefs[k] * x[r.cols[k]];
    EXPECT_GE(sum, r.lower - kTol) << r.name;
    EXPECT_LE(sum, r.upper + kTol) << r.name;
  }
}

void expect_optimum(const Model& m, const Result& r, double optimum) {
  ASSERT_EQ(r.status, Status::optimal) << to_string(r.status);
  expect_feasible(m, r.values);
  double objective = 0.0;
  for (int j = 0; j < m.columns(); ++j) objective += m.cost[j] * r.values[j];
  EXPECT_NEAR(objective, r.objective, kTol);
  EXPECT_NEAR(r.objective, optimum, kTol);
  if (m.sense == Sense::minimize)
    EXPECT_LE(r.bound, r.objective + kTol);
  else
    EXPECT_GE(r.bound, r.objective - kTol);
  EXPECT_NEAR(r.bound, optimum, 1e-3 * std::max(1.0, std::abs(optimum)));  // default gap 1e-4
}

// 0/1 knapsack, maximised: values 10 13 7 8, weights 5 6 3 4, capacity 10 -> items 1 and 3, 21.
Model knapsack() {
  Model m;
  m.sense = Sense::maximize;
  const double value[] = {10, 13, 7, 8}, weight[] = {5, 6, 3, 4};
  std::vector<int> cols;
  std::vector<double> coefs;
  for (int j = 0; j < 4; ++j) {
    cols.push_back(m.add_column(fmt::format("item{}", j), 0, 1, value[j], true));
    coefs.push_back(weight[j]);
  }
  m.add_row("capacity", cols, coefs, '<', 10);
  return m;
}

// 3 x 3 assignment, minimised: the cheapest permutation is 0->1, 1->0, 2->2 at 1 + 2 + 2 = 5.
Model assignment() {
  Model m;
  const double cost[3][3] = {{4, 1, 3}, {2, 0, 5}, {3, 2, 2}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.add_column(fmt::format("x{}{}", i, j), 0, 1, cost[i][j], true);
  for (int i = 0; i < 3; ++i) {
    m.add_row(fmt::format("row{}", i), {3 * i, 3 * i + 1, 3 * i + 2}, {1, 1, 1}, '=', 1);
    m.add_row(fmt::format("col{}", i), {i, i + 3, i + 6}, {1, 1, 1}, '=', 1);
  }
  return m;
}

// Set cover of {0..4} by {0,1,2}:3, {2,3}:1, {3,4}:1, {0,4}:1, {1}:1. Two sets of cost 1 cover at
// most four elements, so the optimum is 3 (for instance {2,3} {0,4} {1}).
Model set_cover() {
  Model m;
  const std::vector<std::vector<int>> sets = {{0, 1, 2}, {2, 3}, {3, 4}, {0, 4}, {1}};
  const double cost[] = {3, 1, 1, 1, 1};
  for (std::size_t s = 0; s < sets.size(); ++s)
    m.add_column(fmt::format("s{}", s), 0, 1, cost[s], true);
  for (int e = 0; e < 5; ++e) {
    std::vector<int> cols;
    for (std::size_t s = 0; s < sets.size(); ++s)
      for (int x : sets[s])
        if (x == e) cols.push_back(static_cast<int>(s));
    m.add_row(fmt::format("e{}", e), cols, std::vector<double>(cols.size(), 1.0), '>', 1);
  }
  return m;
}

// General integers with a negative range: min x - 2y s.t. 2x + 2y <= 7, x - y >= -1, x in [-3, 4],
// y in [0, 5]. The LP optimum is fractional (x = 1.25, y = 2.25, -3.25); the integer one is
// x = 1, y = 2: -3.
Model general_integers() {
  Model m;
  const int x = m.add_column("x", -3, 4, 1, true);
  const int y = m.add_column("y", 0, 5, -2, true);
  m.add_row("sum", {x, y}, {2, 2}, '<', 7);
  m.add_row("diff", {x, y}, {1, -1}, '>', -1);
  return m;
}

// Three binaries that must sum to at least 4.
Model infeasible() {
  Model m;
  for (int j = 0; j < 3; ++j) m.add_column(fmt::format("b{}", j), 0, 1, 1, true);
  m.add_row("many", {0, 1, 2}, {1, 1, 1}, '>', 4);
  return m;
}

template <typename B>
class MilpBackend : public ::testing::Test {
 protected:
  B backend;
  Limits limits;
};

using Backends = ::testing::Types<CbcBackend, BruteForceBackend>;
TYPED_TEST_SUITE(MilpBackend, Backends);

TYPED_TEST(MilpBackend, Knapsack) {
  const Model m = knapsack();
  const Result r = this->backend.solve(m, this->limits);
  expect_optimum(m, r, 21);
  EXPECT_NEAR(r.values[1] + r.values[3], 2.0, kTol);
}

TYPED_TEST(MilpBackend, Assignment) {
  const Model m = assignment();
  const Result r = this->backend.solve(m, this->limits);
  expect_optimum(m, r, 5);
  EXPECT_NEAR(r.values[1] + r.values[3] + r.values[8], 3.0, kTol);  // the unique optimum
}

TYPED_TEST(MilpBackend, SetCover) {
  const Model m = set_cover();
  expect_optimum(m, this->backend.solve(m, this->limits), 3);
}

TYPED_TEST(MilpBackend, GeneralIntegersWithNegativeBounds) {
  const Model m = general_integers();
  const Result r = this->backend.solve(m, this->limits);
  expect_optimum(m, r, -3);
  EXPECT_NEAR(r.values[0], 1.0, kTol);
  EXPECT_NEAR(r.values[1], 2.0, kTol);
}

TYPED_TEST(MilpBackend, Infeasible) {
  const Result r = this->backend.solve(infeasible(), this->limits);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_TRUE(r.values.empty());
}

TYPED_TEST(MilpBackend, EmptyBoundsAreInfeasible) {
  Model m;
  m.add_column("x", 0.5, 0.7, 1, true);  // no integer inside
  EXPECT_EQ(this->backend.solve(m, this->limits).status, Status::infeasible);
}

TYPED_TEST(MilpBackend, AFeasibleWarmStartIsNeverWorsened) {
  const Model m = assignment();
  const std::vector<double> start = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // the diagonal, 6
  this->limits.node_limit = 1;
  const Result r = this->backend.solve(m, this->limits, start);
  ASSERT_TRUE(r.status == Status::optimal || r.status == Status::feasible) << to_string(r.status);
  expect_feasible(m, r.values);
  EXPECT_LE(r.objective, 6.0 + kTol);
  EXPECT_LE(r.bound, r.objective + kTol);
}

TYPED_TEST(MilpBackend, Unbounded) {
  Model m;
  m.sense = Sense::maximize;
  const int x = m.add_column("x", 0, kInf, 1, true);
  const int y = m.add_column("y", 0, 3, 1, true);
  m.add_row("slope", {x, y}, {1, -2}, '>', -1);
  if constexpr (std::is_same_v<TypeParam, BruteForceBackend>) {
    EXPECT_THROW((void)this->backend.solve(m, this->limits), std::invalid_argument);
  } else {
    EXPECT_EQ(this->backend.solve(m, this->limits).status, Status::unbounded);
  }
}

TEST(BruteForceBackend, RefusesContinuousColumnsAndLargeSpaces) {
  Model continuous;
  continuous.add_column("w", 0, 1, 1, false);
  EXPECT_THROW((void)BruteForceBackend().solve(continuous, {}), std::invalid_argument);
  Model large;
  for (int j = 0; j < 21; ++j) large.add_column(fmt::format("b{}", j), 0, 1, 1, true);
  EXPECT_THROW((void)BruteForceBackend().solve(large, {}), std::invalid_argument);  // 2^21
  EXPECT_EQ(BruteForceBackend(1 << 21).solve(large, {}).status, Status::optimal);
}

// Pure LPs go to Clp: a fractional vertex, and the unbounded and infeasible cases.
TEST(CbcBackend, SolvesPureLps) {
  Model m;
  const int x = m.add_column("x", 0, kInf, -1, false);
  const int y = m.add_column("y", 0, kInf, -1, false);
  m.add_row("a", {x, y}, {2, 1}, '<', 4);
  m.add_row("b", {x, y}, {1, 3}, '<', 6);
  const Result r = CbcBackend().solve(m, {});
  expect_optimum(m, r, -2.8);  // x = 1.2, y = 1.6
  EXPECT_NEAR(r.values[0], 1.2, kTol);

  Model open;
  open.add_column("x", 0, kInf, -1, false);
  EXPECT_EQ(CbcBackend().solve(open, {}).status, Status::unbounded);
  Model none;
  none.add_column("x", 0, 1, 1, false);
  none.add_row("big", {0}, {1}, '>', 2);
  EXPECT_EQ(CbcBackend().solve(none, {}).status, Status::infeasible);
}

}  // namespace
}  // namespace flux::milp
