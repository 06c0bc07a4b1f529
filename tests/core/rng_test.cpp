#include "core/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace flux {
namespace {

TEST(Rng, SameSeedSameStream) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, DistributionsHaveTheRightMoments) {
  Rng r(7);
  const int n = 200000;
  double su = 0, sn = 0, sn2 = 0, sg = 0;
  for (int i = 0; i < n; ++i) {
    su += r.uniform();
    const double z = r.normal();
    sn += z;
    sn2 += z * z;
    sg += r.gamma(2.0);
  }
  EXPECT_NEAR(su / n, 0.5, 0.01);
  EXPECT_NEAR(sn / n, 0.0, 0.01);
  EXPECT_NEAR(sn2 / n, 1.0, 0.02);
  EXPECT_NEAR(sg / n, 2.0, 0.03);
}

TEST(Rng, PermutationIsAPermutation) {
  Rng r(1);
  auto p = r.permutation(50);
  std::sort(p.begin(), p.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(p[static_cast<std::size_t>(i)], i);
  auto d = r.dirichlet(8, 0.5);
  double s = 0;
  for (double x : d) s += x;
  EXPECT_NEAR(s, 1.0, 1e-12);
}

}  // namespace
}  // namespace flux
