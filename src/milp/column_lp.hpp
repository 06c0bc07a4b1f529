#pragma once
// A covering LP that grows by columns and is re-solved warm, for column generation:
//   minimise Σ_j c_j x_j  s.t.  Σ_{j ∋ r} x_j >= b_r for every row r,  0 <= x_j <= u_j,
// with 0/1 coefficients (a column is the list of rows it covers) and u_j >= 0 (+inf unless set;
// 0 once disabled). Rows may be made elastic: a shortfall on any row then costs `penalty` per
// unit instead of making the LP infeasible (a start for capped column generation). Clp solves
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
  // x_j <= upper for an enabled column (in the dual: Σ_{r ∈ j} y_r − z_j <= c_j with a variable
  // z_j >= 0 of cost `upper`, added on first use).
  void set_upper(int column, double upper);
  // Every row's shortfall allowed at `penalty` per unit (the dual's y_r <= penalty); +inf (the
  // default) makes the rows hard again. Values then cover b only where the shortfall is zero.
  void set_row_penalty(double penalty);
  [[nodiscard]] int columns() const;

  // True when the LP was solved to optimality; then values, duals and objective hold its solution.
  bool solve();
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  [[nodiscard]] const std::vector<double>& duals() const { return duals_; }  // >= 0, one per row
  [[nodiscard]] double objective() const { return objective_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rows_ = 0;
  std::vector<double> values_, duals_;
  double objective_ = 0.0;
};

}  // namespace flux::milp
