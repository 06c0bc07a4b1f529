#include "matrix/generators.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace flux::matrix {
namespace {

double max_line(const Matrix& m) {
  return m.max_line_sum();
}

void expect_normalised_nonnegative(const Matrix& m) {
  EXPECT_NEAR(max_line(m), 1.0, 1e-12);
  for (double v : m.data()) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GE(v, 0.0);
  }
}

TEST(Generators, EveryKindIsNormalisedAndDeterministic) {
  GeneratorOptions opt;
  opt.tokens = 64;  // keep moe fast
  for (const std::string& kind : generator_kinds()) {
    SCOPED_TRACE(kind);
    const Matrix a = generate_matrix(kind, opt, 7);
    expect_normalised_nonnegative(a);
    EXPECT_EQ(a, generate_matrix(kind, opt, 7));
    if (kind != "alltoall" && kind != "gpt") {
      EXPECT_NE(a, generate_matrix(kind, opt, 8));
    }
  }
}

TEST(Generators, SyntheticHasSixteenFlowsAndUnchangedSupportUnderNoise) {
  GeneratorOptions clean_opt;
  clean_opt.noise = 0.0;
  const Matrix clean = generate_synthetic(clean_opt, 3);
  const Matrix noisy = generate_synthetic({}, 3);
  EXPECT_EQ(clean.n(), 100);
  EXPECT_LE(clean.max_line_nonzeros(), 16);
  EXPECT_GE(clean.max_line_nonzeros(), 12);  // collisions merge a few flows, never many
  // Same permutations (the noise is drawn after them), so the supports coincide.
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) EXPECT_EQ(clean(i, j) > 0, noisy(i, j) > 0);
  // Re-centring keeps every line sum close to 1 (a clean synthetic matrix is doubly stochastic).
  for (double r : noisy.row_sums()) EXPECT_NEAR(r, 1.0, 0.01);
  for (double c : noisy.col_sums()) EXPECT_NEAR(c, 1.0, 0.01);
  for (double r : clean.row_sums()) EXPECT_NEAR(r, 1.0, 1e-12);
}

TEST(Generators, SyntheticSweepsFlowsAndShare) {
  GeneratorOptions opt;
  opt.large_flows = 16;
  opt.small_flows = 48;
  opt.large_share = 0.25;
  opt.noise = 0.0;
  const Matrix m = generate_synthetic(opt, 1);
  EXPECT_LE(m.max_line_nonzeros(), 64);
  EXPECT_GT(m.max_line_nonzeros(), 40);
  // Largest entry is at least one large flow (0.25/16), at most a few colliding.
  EXPECT_GE(m.max_entry(), 0.25 / 16 - 1e-12);
}

TEST(Generators, GptMatchesReferenceWeights) {
  const Matrix m = generate_gpt({}, 1);
  ASSERT_EQ(m.n(), 32);
  EXPECT_EQ(m.max_line_nonzeros(), 4);
  EXPECT_NEAR(m(0, 1), 0.94717, 5e-6);   // tensor parallel
  EXPECT_NEAR(m(8, 16), 0.02229, 5e-6);  // pipeline
  EXPECT_NEAR(m(0, 2), 0.00826, 5e-6);   // data-parallel ring
  EXPECT_NEAR(m(6, 0), 0.00826, 5e-6);   // ring wraps inside the 8-GPU block
  EXPECT_NEAR(m(0, 24), 0.00107, 5e-6);  // embedding sync
  EXPECT_EQ(m(0, 0), 0.0);
  for (double r : m.row_sums()) {
    EXPECT_GE(r, 0.9785);  // reference: 0.979 after rounding
    EXPECT_LE(r, 1.0 + 1e-12);
  }
}

TEST(Generators, GptCopiesAreBlockDiagonalAndNoiseKeepsSupport) {
  GeneratorOptions opt;
  opt.n = 128;
  const Matrix clean = generate_gpt(opt, 1);
  const Matrix small = generate_gpt({}, 1);
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 128; ++j)
      EXPECT_EQ(clean(i, j), i / 32 == j / 32 ? small(i % 32, j % 32) : 0.0);
  opt.noise = 0.003;
  const Matrix noisy = generate_gpt(opt, 1);
  EXPECT_NE(noisy, clean);
  EXPECT_EQ(noisy.max_line_nonzeros(), 4);
  EXPECT_NEAR(noisy(0, 1), clean(0, 1), 0.02);
}

TEST(Generators, MoeIsDenseDispatchWithZeroDiagonal) {
  GeneratorOptions opt;
  opt.n = 16;
  opt.tokens = 512;
  opt.top_k = 2;
  const Matrix m = generate_moe(opt, 5);
  EXPECT_EQ(m.max_line_nonzeros(), 15);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(m(i, i), 0.0);
  // Column sums follow the popularity of each rank's expert; row sums are about equal because
  // every rank sends ~ tokens·top_k·(1 - p_own) tokens.
  const auto rows = m.row_sums();
  EXPECT_GT(*std::min_element(rows.begin(), rows.end()), 0.2);
}

TEST(Generators, MoeZipfConcentratesOnFewExperts) {
  GeneratorOptions opt;
  opt.n = 32;
  opt.tokens = 256;
  opt.top_k = 1;
  opt.popularity = Popularity::zipf;
  opt.zipf_s = 2.0;
  const Matrix m = generate_moe(opt, 9);
  auto cols = m.col_sums();
  std::sort(cols.rbegin(), cols.rend());
  // Zipf(2): the top expert gets ~60 % of the tokens, far more than the second.
  EXPECT_GT(cols[0], 2.0 * cols[1]);
}

TEST(Generators, PermutationSumHasKNonZerosPerLineAtMost) {
  GeneratorOptions opt;
  opt.permutations = 7;
  const Matrix m = generate_permutations(opt, 11);
  EXPECT_EQ(m.n(), 32);
  EXPECT_LE(m.max_line_nonzeros(), 7);
  EXPECT_GE(m.max_line_nonzeros(), 5);
}

TEST(Generators, AlltoallAndSparse) {
  GeneratorOptions opt;
  opt.n = 10;
  const Matrix a = generate_alltoall(opt);
  EXPECT_EQ(a.max_line_nonzeros(), 9);
  EXPECT_NEAR(a(0, 1), 1.0 / 9, 1e-15);
  opt.n = 200;
  opt.density = 0.1;
  const Matrix s = generate_sparse(opt, 2);
  const double fill = static_cast<double>(s.nonzeros()) / (200.0 * 199.0);
  EXPECT_NEAR(fill, 0.1, 0.01);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(s(i, i), 0.0);
}

void expect_input_error(const std::string& kind, const GeneratorOptions& opt,
                        const std::string& field) {
  try {
    (void)generate_matrix(kind, opt, 1);
    ADD_FAILURE() << "accepted " << kind;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field);
  }
}

TEST(Generators, RejectsBadOptions) {
  struct Case {
    std::string kind, field;
    void (*edit)(GeneratorOptions&);
  };
  const std::vector<Case> cases = {
      {"nope", "kind", [](GeneratorOptions&) {}},
      {"gpt", "n", [](GeneratorOptions& o) { o.n = 33; }},
      {"synthetic", "n", [](GeneratorOptions& o) { o.n = -1; }},
      {"synthetic", "n", [](GeneratorOptions& o) { o.n = 5000; }},
      {"synthetic", "large-share", [](GeneratorOptions& o) { o.large_share = 1.5; }},
      {"synthetic", "noise", [](GeneratorOptions& o) { o.noise = -0.1; }},
      {"synthetic", "flows", [](GeneratorOptions& o) { o.large_flows = o.small_flows = 0; }},
      {"moe", "top-k", [](GeneratorOptions& o) { o.top_k = 1000; }},
      {"moe", "experts", [](GeneratorOptions& o) { o.experts = 65; }},
      {"moe", "alpha", [](GeneratorOptions& o) { o.alpha = 0.0; }},
      {"sparse", "density", [](GeneratorOptions& o) { o.density = 0.0; }},
      {"perm", "permutations", [](GeneratorOptions& o) { o.permutations = 0; }},
  };
  for (const Case& c : cases) {
    GeneratorOptions o;
    c.edit(o);
    SCOPED_TRACE(c.kind + " " + c.field);
    expect_input_error(c.kind, o, c.field);
  }
}

}  // namespace
}  // namespace flux::matrix
