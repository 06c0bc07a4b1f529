#include "experiments/matrix_bench.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "core/error.hpp"
#include "matrix/bounds.hpp"
#include "matrix/verify.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::experiments {
namespace {

BenchWorkload workload(std::string name, std::string kind, int n) {
  BenchWorkload w;
  w.name = std::move(name);
  w.kind = std::move(kind);
  w.options.n = n;
  return w;
}

BenchWorkload noisy(BenchWorkload w) {
  w.name += "-noisy";
  w.options.noise = 0.003;
  return w;
}

BenchWorkload moe(const char* name, matrix::Popularity popularity) {
  BenchWorkload w = workload(name, "moe", 64);
  w.options.popularity = popularity;
  return w;
}

// Random sparse, n = 50, each off-diagonal entry present with probability 0.2.
BenchWorkload sparse50() {
  BenchWorkload w = workload("sparse50", "sparse", 50);
  w.options.density = 0.2;
  return w;
}

// Synthetic n = 64 with twice the paper's flows per port: 8 large + 24 small.
BenchWorkload synthetic_wide() {
  BenchWorkload w = workload("synthetic64-wide", "synthetic", 64);
  w.options.large_flows = 8;
  w.options.small_flows = 24;
  return w;
}

BenchWorkload sweep(const char* name, const char* param, std::vector<double> values) {
  BenchWorkload w = workload(name, "synthetic", 100);
  w.sweep = param;
  w.sweep_values = std::move(values);
  return w;
}

// The generator options for one sweep value (as the Spectra paper's synthetic workload: flows split
// 1/4 large, 3/4 small).
matrix::GeneratorOptions options_at(const BenchWorkload& w, double x) {
  matrix::GeneratorOptions o = w.options;
  if (w.sweep == "flows") {
    o.large_flows = std::max(1, static_cast<int>(std::lround(x)) / 4);
    o.small_flows = 3 * o.large_flows;
  } else if (w.sweep == "small-share") {
    o.large_share = 1.0 - x;
  }
  return o;
}

// Sums over the trials of one cell.
struct Accumulator {
  int trials = 0;
  double makespan = 0, lb = 0, over_lb = 0, ratio = 0, seconds = 0, perms = 0;
  double lb1 = 0, lb2 = 0, lb3 = 0, lb4 = 0;
};
using CellKey = std::tuple<double, int, double, std::size_t>;  // x, s, δ, algorithm index

struct Run {
  double makespan = 0, seconds = 0, lb = 0;  // lb: the bound for the schedule's model
  int permutations = 0;
};

class BenchRunner {
 public:
  BenchRunner(const BenchGrid& grid, BenchResult& result) : grid_(grid), result_(result) {
    for (const std::string& name : grid.algorithms) {
      const matrix_schedulers::MatrixAlgorithm* a = matrix_schedulers::find_matrix_algorithm(name);
      if (!a) throw InputError("", "algorithms", fmt::format("a known algorithm, not '{}'", name));
      algos_.push_back(a);
    }
    for (std::size_t k = 0; k < algos_.size(); ++k)
      if (algos_[k]->name == grid.baseline) baseline_ = static_cast<int>(k);
  }

  // Runs of one workload: (x, trial, s, δ) tuples, each every algorithm once.
  std::size_t runs(const BenchWorkload& w) const {
    return (w.sweep.empty() ? 1 : w.sweep_values.size()) * grid_.switches.size() *
           (w.sweep.empty() ? grid_.deltas.size() : 1) * static_cast<std::size_t>(grid_.trials);
  }

  void run_workload(const BenchWorkload& w, Progress& progress) {
    std::map<CellKey, Accumulator> acc;
    const std::vector<double> xs = w.sweep.empty() ? std::vector<double>{0.0} : w.sweep_values;
    for (double x : xs) {
      const std::vector<double> deltas =
          w.sweep.empty() ? grid_.deltas : std::vector<double>{grid_.sweep_delta};
      {
        ProgressStage group(progress,
                            w.sweep.empty() ? w.name : fmt::format("{} {}={}", w.name, w.sweep, x));
        for (int t = 0; t < grid_.trials; ++t) {
          const std::uint64_t seed = grid_.seed + static_cast<std::uint64_t>(t);
          const Matrix d = generate_matrix(w.kind, options_at(w, x), seed);
          for (int s : grid_.switches)
            for (double delta : deltas)
              run_cell(w, d, w.sweep.empty() ? delta : x, s, delta, seed, acc);
        }
        group.finish(fmt::format("{} trials", grid_.trials));
      }
      progress.advance(static_cast<double>(grid_.trials * grid_.switches.size() * deltas.size()));
    }
    for (const auto& [key, a] : acc) {
      const auto& [x, s, delta, k] = key;
      result_.cells.push_back(
          {w.name, x, s, delta, algos_[k]->name, a.trials, a.makespan / a.trials, a.lb / a.trials,
           a.lb1 / a.trials, a.lb2 / a.trials, a.lb3 / a.trials, a.lb4 / a.trials,
           a.over_lb / a.trials, a.ratio / a.trials, a.seconds / a.trials, a.perms / a.trials});
    }
  }

 private:
  void run_cell(const BenchWorkload& w, const Matrix& d, double x, int s, double delta,
                std::uint64_t seed, std::map<CellKey, Accumulator>& acc) {
    const matrix::MatrixProblem p{.time = d, .switches = s, .delta = delta};
    const matrix::MatrixBounds bounds = matrix::matrix_lower_bounds(d, s, delta);
    std::vector<Run> runs;
    for (const matrix_schedulers::MatrixAlgorithm* a : algos_)
      runs.push_back(run_one(*a, p, seed, bounds, w.name));
    const double base = baseline_ >= 0 ? runs[static_cast<std::size_t>(baseline_)].makespan : NAN;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      Accumulator& a = acc[{x, s, delta, k}];
      ++a.trials;
      a.makespan += runs[k].makespan;
      a.lb += runs[k].lb;
      a.lb1 += bounds.lb1;
      a.lb2 += bounds.lb2;
      a.lb3 += bounds.lb3;
      a.lb4 += bounds.lb4;
      a.over_lb += runs[k].lb > 0 ? runs[k].makespan / runs[k].lb : 1.0;
      a.ratio += runs[k].makespan > 0 ? base / runs[k].makespan : 1.0;
      a.seconds += runs[k].seconds;
      a.perms += runs[k].permutations;
    }
  }

  Run run_one(const matrix_schedulers::MatrixAlgorithm& a, const matrix::MatrixProblem& p,
              std::uint64_t seed, const matrix::MatrixBounds& bounds, const std::string& workload) {
    const auto start = std::chrono::steady_clock::now();
    const matrix::MatrixResult r = a.run(p, {.seed = seed});
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    ++result_.schedules;
    const std::string where =
        fmt::format("{} s={} delta={} seed={} {}", workload, p.switches, p.delta, seed, a.name);
    const matrix::VerifyReport rep = verify_matrix_schedule(p.time, r.schedule);
    if (!rep.valid()) result_.failures.push_back(where + ": " + rep.to_text());
    const double lb = bounds.for_model(r.schedule.reconfiguration);
    if (lb > r.schedule.makespan * (1 + 1e-9))
      result_.failures.push_back(
          fmt::format("{}: LB {} > makespan {}", where, lb, r.schedule.makespan));
    return {r.schedule.makespan, took.count(), lb, r.permutations};
  }

  const BenchGrid& grid_;
  BenchResult& result_;
  std::vector<const matrix_schedulers::MatrixAlgorithm*> algos_;
  int baseline_ = -1;
};

bool contains(const std::vector<double>& v, double x) {
  for (double y : v)
    if (std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y))) return true;
  return false;
}

}  // namespace

std::vector<BenchWorkload> paper_workloads(bool quick) {
  const std::vector<double> flows =
      quick ? std::vector<double>{8, 32, 64} : std::vector<double>{8, 16, 24, 32, 40, 48, 56, 64};
  const std::vector<double> shares =
      quick ? std::vector<double>{0.05, 0.35, 0.75}
            : std::vector<double>{0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75};
  std::vector<BenchWorkload> w = {workload("synthetic", "synthetic", 100),
                                  workload("gpt32", "gpt", 32),
                                  noisy(workload("gpt32", "gpt", 32))};
  if (!quick) {
    for (int n : {64, 128}) {
      const BenchWorkload g = workload(fmt::format("gpt{}", n), "gpt", n);
      w.push_back(g);
      w.push_back(noisy(g));
    }
  }
  w.push_back(moe("moe64-dirichlet", matrix::Popularity::dirichlet));
  if (!quick) {
    w.push_back(moe("moe64-zipf", matrix::Popularity::zipf));
    w.push_back(sparse50());
    w.push_back(synthetic_wide());
  }
  w.push_back(sweep("sweep-flows", "flows", flows));
  w.push_back(sweep("sweep-small-share", "small-share", shares));
  return w;
}

std::vector<std::string> default_bench_algorithms() {
  std::vector<std::string> names;
  for (const matrix_schedulers::MatrixAlgorithm& a : matrix_schedulers::matrix_algorithms())
    names.push_back(a.name);
  return names;
}

BenchResult run_matrix_bench(const BenchGrid& grid, Progress& progress) {
  BenchResult result;
  BenchRunner runner(grid, result);
  double total = 0;
  for (const BenchWorkload& w : grid.workloads) total += static_cast<double>(runner.runs(w));
  ProgressStage all(progress, "matrix bench runs", total);
  for (const BenchWorkload& w : grid.workloads) runner.run_workload(w, progress);
  all.finish();
  return result;
}

double average_baseline_ratio(const BenchResult& r, const std::string& workload,
                              const std::string& algorithm, const std::vector<int>& switches,
                              const std::vector<double>& xs) {
  double sum = 0.0;
  int count = 0;
  for (const BenchCell& c : r.cells) {
    if (c.workload != workload || c.algorithm != algorithm) continue;
    if (!switches.empty() &&
        std::find(switches.begin(), switches.end(), c.switches) == switches.end())
      continue;
    if (!xs.empty() && !contains(xs, c.x)) continue;
    sum += c.baseline_ratio;
    ++count;
  }
  return count ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace flux::experiments
