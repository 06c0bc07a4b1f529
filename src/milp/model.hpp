#pragma once
// Solver-neutral linear programs with integer columns: bounded columns (continuous or integer),
// rows as sparse lists of (column, coefficient) with a lower and an upper activity, and a linear
// objective to minimise or maximise. Backends (backend.hpp) solve them; model_io.hpp writes them
// as LP or MPS for an outside solver and reads its solution back.
#include <string>
#include <vector>

namespace flux::milp {

enum class Sense { minimize, maximize };

struct Model {
  struct Row {
    std::string name;
    std::vector<int> cols;
    std::vector<double> coefs;
    double lower = 0.0, upper = 0.0;  // one of them infinite, or equal (no ranges)
  };
  std::string title;  // a comment line in the LP file, "" for none
  Sense sense = Sense::minimize;
  std::vector<std::string> names;
  std::vector<double> lower, upper, cost;  // bounds may be ±infinity
  std::vector<char> integer;
  std::vector<Row> rows;

  int add_column(std::string name, double lo, double hi, double obj, bool is_integer);
  // sense: '<' (≤ rhs), '>' (≥ rhs) or '=' (= rhs).
  void add_row(std::string name, std::vector<int> cols, std::vector<double> coefs, char sense,
               double rhs);
  [[nodiscard]] int columns() const { return static_cast<int>(names.size()); }
  [[nodiscard]] int integers() const;
  [[nodiscard]] double objective(const std::vector<double>& x) const;
  [[nodiscard]] double activity(const Row& row, const std::vector<double>& x) const;
  // First violated bound, integrality or row at tolerance `tol` (scaled), or "" when feasible.
  [[nodiscard]] std::string violation(const std::vector<double>& x, double tol = 1e-6) const;
};

}  // namespace flux::milp
