#include "milp/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace flux::milp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

int Model::add_column(std::string name, double lo, double hi, double obj, bool is_integer) {
  names.push_back(std::move(name));
  lower.push_back(lo);
  upper.push_back(hi);
  cost.push_back(obj);
  integer.push_back(is_integer ? 1 : 0);
  return columns() - 1;
}

void Model::add_row(std::string name, std::vector<int> cols, std::vector<double> coefs, char sense,
                    double rhs) {
  Row r{std::move(name), std::move(cols), std::move(coefs), -kInf, kInf};
  if (sense != '<') r.lower = rhs;
  if (sense != '>') r.upper = rhs;
  rows.push_back(std::move(r));
}

int Model::integers() const {
  return static_cast<int>(std::count(integer.begin(), integer.end(), 1));
}

double Model::objective(const std::vector<double>& x) const {
  double sum = 0.0;
  for (int j = 0; j < columns(); ++j) sum += cost[j] * x[j];
  return sum;
}

double Model::activity(const Row& row, const std::vector<double>& x) const {
  double sum = 0.0;
  for (std::size_t k = 0; k < row.cols.size(); ++k) sum += row.coefs[k] * x[row.cols[k]];
  return sum;
}

std::string Model::violation(const std::vector<double>& x, double tol) const {
  if (static_cast<int>(x.size()) != columns()) return "wrong number of values";
  for (int j = 0; j < columns(); ++j) {
    const double t = tol * std::max(1.0, std::abs(x[j]));
    if (x[j] < lower[j] - t || x[j] > upper[j] + t)
      return fmt::format("column {} = {} outside [{}, {}]", names[j], x[j], lower[j], upper[j]);
    if (integer[j] && std::abs(x[j] - std::round(x[j])) > 1e-5)
      return fmt::format("column {} = {} is not integral", names[j], x[j]);
  }
  for (const Row& r : rows) {
    double scale = 1.0;
    for (std::size_t k = 0; k < r.cols.size(); ++k)
      scale = std::max(scale, std::abs(r.coefs[k] * x[r.cols[k]]));
    const double sum = activity(r, x);
    if (sum < r.lower - tol * scale || sum > r.upper + tol * scale)
      return fmt::format("row {} = {} outside [{}, {}]", r.name, sum, r.lower, r.upper);
  }
  return "";
}

}  // namespace flux::milp
