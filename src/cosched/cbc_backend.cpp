// The COIN-OR CBC backend of milp_solver.hpp — the only translation unit with COIN-OR headers.
#include <CbcConfig.h>
#include <CbcHeuristic.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcModel.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

#include "cosched/milp_solver.hpp"

namespace flux {
namespace {

void load(OsiClpSolverInterface& solver, const MilpModel& m) {
  CoinPackedMatrix matrix(false, 0, 0);
  matrix.setDimensions(0, m.columns());
  std::vector<double> row_lo, row_hi;
  for (const auto& r : m.rows) {
    matrix.appendRow(static_cast<int>(r.cols.size()), r.cols.data(), r.coefs.data());
    row_lo.push_back(std::isfinite(r.lower) ? r.lower : -COIN_DBL_MAX);
    row_hi.push_back(std::isfinite(r.upper) ? r.upper : COIN_DBL_MAX);
  }
  std::vector<double> lo(m.lower), hi(m.upper);
  for (auto& v : lo) v = std::isfinite(v) ? v : -COIN_DBL_MAX;
  for (auto& v : hi) v = std::isfinite(v) ? v : COIN_DBL_MAX;
  solver.loadProblem(matrix, lo.data(), hi.data(), m.cost.data(), row_lo.data(), row_hi.data());
  for (int j = 0; j < m.columns(); ++j)
    if (m.integer[j]) solver.setInteger(j);
}

// Standard cut generators and heuristics; CbcModel clones what it is given.
void configure(CbcModel& model) {
  CglProbing probing;
  probing.setUsingObjective(true);
  CglGomory gomory;
  CglMixedIntegerRounding2 mir;
  CglFlowCover flow;
  CglClique clique;
  clique.setStarCliqueReport(false);  // it prints to stdout otherwise
  clique.setRowCliqueReport(false);
  CglKnapsackCover knapsack;
  model.addCutGenerator(&probing, -1, "Probing");
  model.addCutGenerator(&gomory, -1, "Gomory");
  model.addCutGenerator(&mir, -1, "MixedIntegerRounding2");
  model.addCutGenerator(&flow, -1, "FlowCover");
  model.addCutGenerator(&clique, -1, "Clique");
  model.addCutGenerator(&knapsack, -1, "KnapsackCover");
  CbcRounding rounding(model);
  model.addHeuristic(&rounding);
  CbcHeuristicFPump pump(model);
  model.addHeuristic(&pump);
}

}  // namespace

std::string cbc_version() {
  return CBC_VERSION;
}

MilpResult solve_cbc(const MilpModel& m, const MilpOptions& options,
                     const std::vector<double>& warm_start) {
  const auto t0 = std::chrono::steady_clock::now();
  MilpResult out;
  out.backend = "cbc " CBC_VERSION;
  OsiClpSolverInterface solver;
  load(solver, m);
  solver.messageHandler()->setLogLevel(0);
  CbcModel model(solver);
  model.setLogLevel(options.log ? 1 : 0);
  model.messageHandler()->setLogLevel(options.log ? 1 : 0);
  model.setUseElapsedTime(true);  // wall clock, like the time limit of the whole scheduler
  model.setMaximumSeconds(options.time_limit);
  model.setAllowableFractionGap(options.gap);
  if (options.node_limit > 0)
    model.setMaximumNodes(static_cast<int>(std::min<std::int64_t>(options.node_limit, INT_MAX)));
  model.setAllowableGap(1e-12);
  if (options.threads > 1) model.setNumberThreads(options.threads);
  configure(model);
  const bool warm = !warm_start.empty() && m.violation(warm_start).empty();
  if (warm) model.setBestSolution(warm_start.data(), m.columns(), m.objective(warm_start), false);
  model.branchAndBound();

  const double* best = model.bestSolution();
  if (best != nullptr)
    out.values.assign(best, best + m.columns());
  else if (warm)
    out.values = warm_start;  // CBC may drop a start it never needed to improve
  if (!out.values.empty() && !m.violation(out.values).empty() && warm) out.values = warm_start;
  if (model.isProvenInfeasible() && out.values.empty())
    out.status = MilpStatus::infeasible;
  else if (out.values.empty())
    out.status = MilpStatus::no_solution;
  else
    out.status = model.isProvenOptimal() ? MilpStatus::optimal : MilpStatus::feasible;
  if (!out.values.empty()) {
    out.objective = m.objective(out.values);
    out.bound = std::min(out.objective, model.getBestPossibleObjValue());
    const double denom = std::max(std::abs(out.objective), 1e-300);
    out.gap = out.status == MilpStatus::optimal ? std::max(0.0, (out.objective - out.bound) / denom)
                                                : (out.objective - out.bound) / denom;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace flux
