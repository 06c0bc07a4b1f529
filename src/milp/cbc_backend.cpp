// The COIN-OR backend of backend.hpp — with clp_column_lp.cpp, the only translation units of Flux
// with COIN-OR headers.
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
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

#include "milp/backend.hpp"

namespace flux::milp {
namespace {

// The model in COIN-OR's form: infinities as ±COIN_DBL_MAX, and the objective negated when
// maximising (CBC and Clp minimise here).
struct CoinForm {
  CoinPackedMatrix matrix{false, 0, 0};
  std::vector<double> col_lo, col_hi, cost, row_lo, row_hi;
};

double coin(double v) {
  return std::isfinite(v) ? v : (v < 0 ? -COIN_DBL_MAX : COIN_DBL_MAX);
}

CoinForm coin_form(const Model& m) {
  CoinForm f;
  f.matrix.setDimensions(0, m.columns());
  for (const auto& r : m.rows) {
    f.matrix.appendRow(static_cast<int>(r.cols.size()), r.cols.data(), r.coefs.data());
    f.row_lo.push_back(coin(r.lower));
    f.row_hi.push_back(coin(r.upper));
  }
  for (int j = 0; j < m.columns(); ++j) {
    // Integer columns get integral bounds: CBC would otherwise accept x = 0.5 in [0.5, 0.7].
    const bool round = m.integer[j] != 0;
    f.col_lo.push_back(coin(round ? std::ceil(m.lower[j] - 1e-9) : m.lower[j]));
    f.col_hi.push_back(coin(round ? std::floor(m.upper[j] + 1e-9) : m.upper[j]));
    f.cost.push_back(m.sense == Sense::maximize ? -m.cost[j] : m.cost[j]);
  }
  return f;
}

// Standard cut generators and heuristics; CbcModel clones what it is given.
void add_cuts_and_heuristics(CbcModel& model) {
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

// Objective, bound (in the model's own sense) and gap of a result whose status and values are set;
// `best_possible` is the solver's bound on the minimised (possibly negated) objective.
void set_objective(const Model& m, double best_possible, Result& out) {
  if (out.values.empty()) return;
  const double sign = m.sense == Sense::maximize ? -1.0 : 1.0;
  const double objective = sign * m.objective(out.values);  // minimised form
  const double bound = std::min(objective, best_possible);
  const double denom = std::max(std::abs(objective), 1e-300);
  out.objective = sign * objective;
  out.bound = sign * bound;
  out.gap = out.status == Status::optimal ? std::max(0.0, (objective - bound) / denom)
                                          : (objective - bound) / denom;
}

// Pure LPs: Clp's dual simplex, no branch and bound.
Result solve_lp(const Model& m, const Limits& limits) {
  Result out;
  const CoinForm f = coin_form(m);
  ClpSimplex lp;
  lp.setLogLevel(limits.log ? 1 : 0);
  if (std::isfinite(limits.time_limit)) lp.setMaximumSeconds(limits.time_limit);
  lp.loadProblem(f.matrix, f.col_lo.data(), f.col_hi.data(), f.cost.data(), f.row_lo.data(),
                 f.row_hi.data());
  lp.dual();
  if (lp.isProvenOptimal()) {
    const double* x = lp.primalColumnSolution();
    out.values.assign(x, x + m.columns());
    out.status = Status::optimal;
    set_objective(m, -COIN_DBL_MAX, out);
    out.bound = out.objective;  // an optimal vertex proves its own value
    out.gap = 0.0;
  } else if (lp.isProvenPrimalInfeasible()) {
    out.status = Status::infeasible;
  } else if (lp.isProvenDualInfeasible()) {
    out.status = Status::unbounded;
  } else {
    out.status = Status::no_solution;
  }
  return out;
}

// CBC reports a model whose relaxation is unbounded as infeasible; Clp tells the two apart.
bool relaxation_unbounded(const Model& m, const Limits& limits) {
  Model relaxed = m;
  relaxed.integer.assign(relaxed.integer.size(), 0);
  return solve_lp(relaxed, limits).status == Status::unbounded;
}

Result solve_mip(const Model& m, const Limits& limits, const std::vector<double>& warm_start) {
  Result out;
  for (int j = 0; j < m.columns(); ++j)
    if (m.integer[j] && std::ceil(m.lower[j] - 1e-9) > std::floor(m.upper[j] + 1e-9)) {
      out.status = Status::infeasible;  // no integer in its bounds (CBC would call it optimal)
      return out;
    }
  const CoinForm f = coin_form(m);
  OsiClpSolverInterface solver;
  solver.loadProblem(f.matrix, f.col_lo.data(), f.col_hi.data(), f.cost.data(), f.row_lo.data(),
                     f.row_hi.data());
  for (int j = 0; j < m.columns(); ++j)
    if (m.integer[j]) solver.setInteger(j);
  solver.messageHandler()->setLogLevel(0);
  CbcModel model(solver);
  model.setLogLevel(limits.log ? 1 : 0);
  model.messageHandler()->setLogLevel(limits.log ? 1 : 0);
  // Wall clock by default, like the time limit of a whole scheduler run.
  if (!limits.cpu_time) model.setUseElapsedTime(true);
  model.setMaximumSeconds(limits.time_limit);
  model.setAllowableFractionGap(limits.gap);
  if (limits.node_limit > 0)
    model.setMaximumNodes(static_cast<int>(std::min<std::int64_t>(limits.node_limit, INT_MAX)));
  model.setAllowableGap(limits.absolute_gap);
  if (limits.integer_tolerance > 0.0) model.setIntegerTolerance(limits.integer_tolerance);
  if (limits.threads > 1) model.setNumberThreads(limits.threads);
  if (limits.cuts) add_cuts_and_heuristics(model);
  const bool warm = !warm_start.empty() && m.violation(warm_start).empty();
  const double sign = m.sense == Sense::maximize ? -1.0 : 1.0;
  if (warm)
    model.setBestSolution(warm_start.data(), m.columns(), sign * m.objective(warm_start), false);
  model.branchAndBound();

  const double* best = model.bestSolution();
  if (best != nullptr)
    out.values.assign(best, best + m.columns());
  else if (warm)
    out.values = warm_start;  // CBC may drop a start it never needed to improve
  if (!out.values.empty() && !m.violation(out.values).empty() && warm) out.values = warm_start;
  if (model.isProvenInfeasible() && out.values.empty())
    out.status = relaxation_unbounded(m, limits) ? Status::unbounded : Status::infeasible;
  else if (out.values.empty())
    out.status = Status::no_solution;
  else
    out.status = model.isProvenOptimal() ? Status::optimal : Status::feasible;
  set_objective(m, model.getBestPossibleObjValue(), out);
  return out;
}

}  // namespace

std::string cbc_version() {
  return CBC_VERSION;
}

std::string CbcBackend::name() const {
  return "cbc " CBC_VERSION;
}

Result CbcBackend::solve(const Model& m, const Limits& limits,
                         const std::vector<double>& warm_start) const {
  const auto t0 = std::chrono::steady_clock::now();
  Result out = m.integers() == 0 ? solve_lp(m, limits) : solve_mip(m, limits, warm_start);
  out.backend = name();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace flux::milp
