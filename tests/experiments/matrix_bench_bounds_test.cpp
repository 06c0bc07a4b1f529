// `flux matrix bench`'s hard families and per-bound columns: every cell carries LB1 <= LB2 <= LB3
// (the bounds of matrix/bounds.hpp on that cell's matrices), the all-stop Spectra variants are
// measured against LB3, and the CSV keeps the columns (an older CSV without them still reads).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "experiments/matrix_bench.hpp"
#include "experiments/matrix_bench_output.hpp"
#include "matrix/bounds.hpp"

namespace flux::experiments {
namespace {

const BenchWorkload& named(const std::vector<BenchWorkload>& list, const std::string& name) {
  const auto it = std::find_if(list.begin(), list.end(),
                               [&](const BenchWorkload& w) { return w.name == name; });
  EXPECT_NE(it, list.end()) << name;
  return *it;
}

TEST(MatrixBenchBounds, HardFamiliesAreInTheFullGrid) {
  const std::vector<BenchWorkload> full = paper_workloads(false);
  const BenchWorkload& sparse = named(full, "sparse50");
  EXPECT_EQ(sparse.kind, "sparse");
  EXPECT_EQ(sparse.options.n, 50);
  EXPECT_DOUBLE_EQ(sparse.options.density, 0.2);
  const BenchWorkload& wide = named(full, "synthetic64-wide");
  EXPECT_EQ(wide.kind, "synthetic");
  EXPECT_EQ(wide.options.n, 64);
  EXPECT_EQ(wide.options.large_flows, 8);
  EXPECT_EQ(wide.options.small_flows, 24);
  // The CI smoke grid stays as it was.
  for (const BenchWorkload& w : paper_workloads(true))
    EXPECT_TRUE(w.name != "sparse50" && w.name != "synthetic64-wide") << w.name;
}

TEST(MatrixBenchBounds, CellsCarryEachBoundAndSpectraIsMeasuredAgainstLb3) {
  BenchGrid g;
  g.workloads = {named(paper_workloads(false), "sparse50")};
  g.switches = {4};
  g.deltas = {0.04};
  g.trials = 2;
  g.algorithms = {"baseline", "spectra", "spectra-ref"};
  const BenchResult r = run_matrix_bench(g);
  ASSERT_TRUE(r.failures.empty()) << r.failures.front();
  ASSERT_EQ(r.cells.size(), 3u);
  // Means over the two trials of the bounds computed directly.
  matrix::MatrixBounds sum;
  for (std::uint64_t seed : {1, 2}) {
    const matrix::MatrixBounds b = matrix::matrix_lower_bounds(
        generate_matrix("sparse", g.workloads[0].options, seed), 4, 0.04);
    sum.lb1 += b.lb1 / 2, sum.lb2 += b.lb2 / 2, sum.lb3 += b.lb3 / 2;
  }
  for (const BenchCell& c : r.cells) {
    EXPECT_DOUBLE_EQ(c.lb1, sum.lb1) << c.algorithm;
    EXPECT_DOUBLE_EQ(c.lb2, sum.lb2) << c.algorithm;
    EXPECT_DOUBLE_EQ(c.lb3, sum.lb3) << c.algorithm;
    EXPECT_LE(c.lb1, c.lb2);
    EXPECT_LE(c.lb2, c.lb3);
    EXPECT_GE(c.makespan_over_lb, 1.0) << c.algorithm;
    if (c.algorithm != "baseline") {
      EXPECT_DOUBLE_EQ(c.lower_bound, c.lb3) << c.algorithm;
    }
  }
  // On this family LB3 is strictly above LB2 (the busiest port is not the one with most entries).
  EXPECT_GT(sum.lb3, sum.lb2);
  const std::string table = bench_table(g, r);
  for (const char* column : {"LB1", "LB2", "LB3", "spectra/LB", "spectra-ref/LB"})
    EXPECT_NE(table.find(column), std::string::npos) << column << "\n" << table;

  const BenchCsv back = read_bench_csv(bench_csv(r), "bench.csv");
  ASSERT_EQ(back.result.cells.size(), r.cells.size());
  for (std::size_t k = 0; k < r.cells.size(); ++k) {
    EXPECT_NEAR(back.result.cells[k].lb1, r.cells[k].lb1, 1e-8);
    EXPECT_NEAR(back.result.cells[k].lb3, r.cells[k].lb3, 1e-8);
  }
}

TEST(MatrixBenchBounds, CsvWithoutTheBoundColumnsStillReads) {
  const std::string old =
      "workload,x,switches,delta,algorithm,trials,makespan,lower_bound,makespan_over_lb,"
      "baseline_ratio,seconds,permutations\n"
      "gpt32,0.02,4,0.02,bvn,1,2,1,2,1,0.1,3\n";
  const BenchCsv csv = read_bench_csv(old, "old.csv");
  ASSERT_EQ(csv.result.cells.size(), 1u);
  EXPECT_EQ(csv.result.cells[0].lb1, 0.0);
  EXPECT_EQ(csv.result.cells[0].lower_bound, 1.0);
}

}  // namespace
}  // namespace flux::experiments
