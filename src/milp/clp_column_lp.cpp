// ColumnLp (column_lp.hpp) on Clp, solved in its dual form. With cbc_backend.cpp, the only
// translation units of Flux that include COIN-OR headers.
#include <ClpSimplex.hpp>

#include <algorithm>

#include "milp/column_lp.hpp"

namespace flux::milp {

// Dual form: one Clp column y_r per covering row (cost −b_r, y >= 0), one Clp row per covering
// column (Σ y <= c_j). Its optimum is minus the covering optimum, its column values are the
// covering duals and minus its row duals are the covering values x.
struct ColumnLp::Impl {
  ClpSimplex lp;
  bool dual_feasible_basis = true;  // only rows were added since the last optimal solve
};

ColumnLp::ColumnLp(const std::vector<double>& row_lower) : impl_(std::make_unique<Impl>()) {
  ClpSimplex& lp = impl_->lp;
  lp.setLogLevel(0);
  lp.resize(0, static_cast<int>(row_lower.size()));
  for (std::size_t r = 0; r < row_lower.size(); ++r) {
    const int c = static_cast<int>(r);
    lp.setColumnLower(c, 0.0);
    lp.setColumnUpper(c, COIN_DBL_MAX);
    lp.setObjectiveCoefficient(c, -row_lower[r]);
  }
}

ColumnLp::~ColumnLp() = default;

int ColumnLp::add_column(const std::vector<int>& rows, double cost) {
  const std::vector<double> ones(rows.size(), 1.0);
  impl_->lp.addRow(static_cast<int>(rows.size()), rows.data(), ones.data(), -COIN_DBL_MAX, cost);
  return impl_->lp.numberRows() - 1;
}

void ColumnLp::disable(int column) {
  impl_->lp.setRowUpper(column, COIN_DBL_MAX);
  impl_->dual_feasible_basis = false;
}

void ColumnLp::set_cost(int column, double cost) {
  impl_->lp.setRowUpper(column,
                        cost);  // a right-hand side of the dual: its basis stays dual feasible
}

int ColumnLp::columns() const {
  return impl_->lp.numberRows();
}

bool ColumnLp::solve() {
  ClpSimplex& lp = impl_->lp;
  if (impl_->dual_feasible_basis)
    lp.dual();
  else
    lp.primal();
  if (!lp.isProvenOptimal()) return false;
  impl_->dual_feasible_basis = true;
  const double* pi = lp.dualRowSolution();
  values_.resize(static_cast<std::size_t>(lp.numberRows()));
  for (std::size_t j = 0; j < values_.size(); ++j) values_[j] = std::max(-pi[j], 0.0);
  const double* y = lp.primalColumnSolution();
  duals_.assign(y, y + lp.numberColumns());
  for (double& v : duals_) v = std::max(v, 0.0);
  objective_ = -lp.objectiveValue();
  return true;
}

}  // namespace flux::milp
