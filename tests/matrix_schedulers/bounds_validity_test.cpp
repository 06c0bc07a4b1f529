// The lower bounds against every registered scheduler and against the exact optimum:
//   LB <= OPT <= makespan of every algorithm, every schedule verified.
// A bound above a valid makespan, or an algorithm below the optimum, fails here.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/rng.hpp"
#include "matrix/bounds.hpp"
#include "matrix/exact_schedule.hpp"
#include "matrix/generators.hpp"
#include "matrix/verify.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::matrix_schedulers {
namespace {

struct Instance {
  std::string name;
  Matrix d;
};

matrix::GeneratorOptions ports(int n) {
  matrix::GeneratorOptions o;
  o.n = n;
  return o;
}

// Small instances of every generator kind (normalised), so every algorithm runs in milliseconds.
std::vector<Instance> generator_instances() {
  std::vector<Instance> out;
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    matrix::GeneratorOptions synthetic = ports(24), gpt = ports(32), moe = ports(12),
                             perm = ports(16), sparse = ports(16);
    synthetic.large_flows = 2;
    synthetic.small_flows = 4;
    gpt.noise = seed == 2 ? 0.003 : 0.0;
    moe.tokens = 64;
    perm.permutations = 5;
    sparse.density = 0.3;
    out.push_back({"synthetic", matrix::generate_matrix("synthetic", synthetic, seed)});
    out.push_back({"gpt", matrix::generate_matrix("gpt", gpt, seed)});
    out.push_back({"moe", matrix::generate_matrix("moe", moe, seed)});
    out.push_back({"perm", matrix::generate_matrix("perm", perm, seed)});
    out.push_back({"sparse", matrix::generate_matrix("sparse", sparse, seed)});
  }
  out.push_back({"alltoall", matrix::generate_matrix("alltoall", ports(8), 1)});
  return out;
}

TEST(BoundsValidity, NeverAboveAnyRegisteredAlgorithm) {
  int checked = 0;
  for (const Instance& inst : generator_instances())
    for (int s : {1, 3, 16})
      for (double delta : {0.0, 0.02, 0.3}) {
        const matrix::MatrixProblem p{.time = inst.d, .switches = s, .delta = delta};
        const matrix::MatrixBounds b = matrix::matrix_lower_bounds(inst.d, s, delta);
        for (const MatrixAlgorithm& a : matrix_algorithms()) {
          const matrix::MatrixResult r = a.run(p, {.seed = 1});
          const matrix::VerifyReport v = verify_matrix_schedule(inst.d, r.schedule);
          ASSERT_TRUE(v.valid()) << a.name << " on " << inst.name << ":\n" << v.to_text();
          EXPECT_LE(b.for_model(r.schedule.reconfiguration), r.schedule.makespan * (1 + 1e-9))
              << a.name << " on " << inst.name << " s=" << s << " delta=" << delta
              << " LB1=" << b.lb1 << " LB2=" << b.lb2 << " LB3=" << b.lb3 << " LB4=" << b.lb4;
          ++checked;
        }
      }
  EXPECT_GT(checked, 500);
}

// Tiny instances: the exact optimum sits between the bound and every algorithm. Prints how far
// `spectra` and `spectra-ref` are from the optimum and the bound from it.
TEST(BoundsValidity, OptimumBetweenBoundAndAlgorithms) {
  Rng rng(99);
  double spectra_gap = 0, ref_gap = 0, lb_gap = 0;
  int count = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 + static_cast<int>(rng.below(3));
    const int s = 1 + static_cast<int>(rng.below(3));
    const double delta = std::array{0.0, 0.02, 0.1}[rng.below(3)];
    matrix::GeneratorOptions gen = ports(n);
    gen.density = n == 4 && s == 3 ? 0.35 : 0.7;  // dense 4x4 on 3 switches: seconds in CBC
    const Matrix d = matrix::generate_matrix("sparse", gen, static_cast<std::uint64_t>(trial + 1));
    const matrix::MatrixProblem p{.time = d, .switches = s, .delta = delta};
    const matrix::ExactResult opt = exact_matrix_schedule(p);
    ASSERT_EQ(opt.status, matrix::ExactStatus::optimal);
    const double lb = matrix::matrix_lower_bounds(d, s, delta).all_stop;
    EXPECT_LE(lb, opt.makespan * (1 + 1e-9));
    for (const MatrixAlgorithm& a : matrix_algorithms()) {
      const matrix::MatrixResult r = a.run(p, {.seed = 1});
      if (r.schedule.reconfiguration == matrix::Reconfiguration::per_port)
        continue;  // another model
      EXPECT_GE(r.schedule.makespan, opt.makespan * (1 - 1e-9))
          << a.name << " beats the optimum: n=" << n << " s=" << s << " delta=" << delta;
      if (opt.makespan == 0) continue;
      if (a.name == "spectra") spectra_gap += r.schedule.makespan / opt.makespan;
      if (a.name == "spectra-ref") ref_gap += r.schedule.makespan / opt.makespan;
    }
    if (opt.makespan > 0) {
      lb_gap += opt.makespan / lb;
      ++count;
    }
  }
  std::printf("tiny instances (%d): mean spectra/OPT %.4f, spectra-ref/OPT %.4f, OPT/LB %.4f\n",
              count, spectra_gap / count, ref_gap / count, lb_gap / count);
}

// The Spectra paper's bounds on the real generators (noisy synthetic: the table's values are means
// over noisy matrices, so compare the mean of 8 with a tolerance).
TEST(BoundsValidity, ReferenceTableOnGenerators) {
  const double deltas[] = {.01, .02, .04, .08};
  const double lb2_s16[] = {.0775, .0925, .1225, .1701};
  for (int k = 0; k < 4; ++k) {
    double mean = 0, mean_s4 = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const Matrix d = matrix::generate_matrix("synthetic", {}, seed);
      mean += matrix::lower_bound_lb2(d, 16, deltas[k]) / 8;
      mean_s4 += matrix::lower_bound_lb2(d, 4, deltas[k]) / 8;
    }
    EXPECT_NEAR(mean, lb2_s16[k], 0.003) << "delta " << deltas[k];
    EXPECT_NEAR(mean_s4, .25 + 4 * deltas[k], 1e-6) << "delta " << deltas[k];  // .29/.33/.41/.57
  }
  const Matrix gpt = matrix::generate_matrix("gpt", {}, 1);
  EXPECT_NEAR(matrix::lower_bound_lb2(gpt, 4, 0.04), 0.32, 1e-9);
  EXPECT_NEAR(matrix::lower_bound_lb1(gpt, 16, 0.08), 0.1425, 1e-9);
}

}  // namespace
}  // namespace flux::matrix_schedulers
