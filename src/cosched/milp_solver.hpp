#pragma once
// Solver-neutral mixed-integer linear programs: a model (columns, one-sided or equality rows,
// minimisation), options, and a result whose status says what is known about the model. One
// backend is built in — COIN-OR CBC (cbc_backend.cpp, the only file that includes COIN-OR
// headers). Models can also be written as LP or MPS for another solver (Gurobi, HiGHS, ...), whose
// solution file is read back and checked against every bound, integrality and row.
// Reference: LEMON's MIP abstraction; HiGHS's status/option design (STYLE.md).
#include <cstdint>
#include <string>
#include <vector>

namespace flux {

struct MilpModel {
  struct Row {
    std::string name;
    std::vector<int> cols;
    std::vector<double> coefs;
    double lower = 0.0, upper = 0.0;  // one of them infinite, or equal (no ranges)
  };
  std::vector<std::string> names;
  std::vector<double> lower, upper, cost;
  std::vector<char> integer;
  std::vector<Row> rows;

  int add_column(std::string name, double lo, double hi, double obj, bool is_integer);
  // sense: '<' (≤ rhs), '>' (≥ rhs) or '=' (= rhs).
  void add_row(std::string name, std::vector<int> cols, std::vector<double> coefs, char sense,
               double rhs);
  [[nodiscard]] int columns() const { return static_cast<int>(names.size()); }
  [[nodiscard]] int integers() const;
  [[nodiscard]] double objective(const std::vector<double>& x) const;
  // First violated bound, integrality or row at tolerance `tol` (scaled), or "" when feasible.
  [[nodiscard]] std::string violation(const std::vector<double>& x, double tol = 1e-6) const;
};

// Append-only: the names appear in output files.
enum class MilpStatus { optimal, feasible, infeasible, no_solution, not_solved };
[[nodiscard]] const char* to_string(MilpStatus status);

struct MilpOptions {
  double time_limit = 60.0;  // seconds, > 0
  int threads = 1;
  double gap = 1e-4;  // relative gap at which the search stops
  // Branch-and-bound nodes per solve (0 = no limit): with one thread, a budget that ends the
  // search at the same point on every machine, unlike the time limit.
  std::int64_t node_limit = 0;
  bool log = false;  // solver log on stderr
};

struct MilpResult {
  std::string backend;
  MilpStatus status = MilpStatus::not_solved;
  std::vector<double> values;  // empty without a solution
  double objective = 0.0, bound = 0.0, gap = 0.0, seconds = 0.0;
};

// The version of the CBC library this binary was built against (its CbcConfig.h).
[[nodiscard]] std::string cbc_version();

// Solves with CBC; `warm_start` (may be empty) must be feasible to be used.
[[nodiscard]] MilpResult solve_cbc(const MilpModel& model, const MilpOptions& options,
                                   const std::vector<double>& warm_start);

[[nodiscard]] std::string write_lp(const MilpModel& model);
[[nodiscard]] std::string write_mps(const MilpModel& model);

// Reads "name value" lines (Gurobi .sol, HiGHS, the CBC `solu` file with an index column first);
// '#' comments and header lines are skipped; columns not listed are 0. Throws InputError (file =
// `label`) for a name not in the model, no values at all, or values that violate the model.
[[nodiscard]] std::vector<double> read_solution(const MilpModel& model, const std::string& text,
                                                const std::string& label);

}  // namespace flux
