#pragma once
// A covering LP that grows by columns and is re-solved warm, for column generation:
//   minimise Σ_j c_j x_j  s.t.  Σ_{j ∋ r} x_j >= b_r for every row r,  0 <= x_j <= u_j,
// with 0/1 coefficients (a column is the list of rows it covers) and u_j ∈ {0, +inf}. Clp solves
// its dual, maximise Σ b_r y_r s.t. Σ_{r ∈ j} y_r <= c_j for every enabled column, y >= 0: column
// generation keeps far fewer columns than rows (~130 against ~1600 non-zeros on a 64-port matrix),
// so the dual's basis is small, and a new column is a new dual row, after which the last basis is
// still dual feasible and the dual simplex continues from it in a few pivots (removing a column
// relaxes the dual, so the primal simplex continues). Rebuilding the model (backend.hpp) would
// start from scratch every time and factor a basis of the size of the row count.
// Implemented on Clp (clp_column_lp.cpp); no COIN-OR header leaks out of the milp module.
#include <memory>
#include <vector>

namespace flux::milp {

class ColumnLp {
 public:
  explicit ColumnLp(const std::vector<double>& row_lower);
  ~ColumnLp();
  ColumnLp(const ColumnLp&) = delete;
  ColumnLp& operator=(const ColumnLp&) = delete;

  // Appends a column (coefficient 1 on every listed row, bounds [0, +inf)); returns its index.
  int add_column(const std::vector<int>& rows, double cost);
  void disable(int column);                // x_j = 0 from now on
  void set_cost(int column, double cost);  // of an enabled column
  [[nodiscard]] int columns() const;

  // True when the LP was solved to optimality; then values, duals and objective hold its solution.
  bool solve();
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  [[nodiscard]] const std::vector<double>& duals() const { return duals_; }  // >= 0, one per row
  [[nodiscard]] double objective() const { return objective_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<double> values_, duals_;
  double objective_ = 0.0;
};

}  // namespace flux::milp
