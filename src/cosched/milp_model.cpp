#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "cosched/milp_solver.hpp"

namespace flux {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double v) {
  return fmt::format("{:.17g}", v);
}

bool parse_number(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && std::isfinite(out);
}

}  // namespace

int MilpModel::add_column(std::string name, double lo, double hi, double obj, bool is_integer) {
  names.push_back(std::move(name));
  lower.push_back(lo);
  upper.push_back(hi);
  cost.push_back(obj);
  integer.push_back(is_integer ? 1 : 0);
  return columns() - 1;
}

void MilpModel::add_row(std::string name, std::vector<int> cols, std::vector<double> coefs,
                        char sense, double rhs) {
  Row r{std::move(name), std::move(cols), std::move(coefs), -kInf, kInf};
  if (sense != '<') r.lower = rhs;
  if (sense != '>') r.upper = rhs;
  rows.push_back(std::move(r));
}

int MilpModel::integers() const {
  return static_cast<int>(std::count(integer.begin(), integer.end(), 1));
}

double MilpModel::objective(const std::vector<double>& x) const {
  double sum = 0.0;
  for (int j = 0; j < columns(); ++j) sum += cost[j] * x[j];
  return sum;
}

std::string MilpModel::violation(const std::vector<double>& x, double tol) const {
  if (static_cast<int>(x.size()) != columns()) return "wrong number of values";
  for (int j = 0; j < columns(); ++j) {
    const double t = tol * std::max(1.0, std::abs(x[j]));
    if (x[j] < lower[j] - t || x[j] > upper[j] + t)
      return fmt::format("column {} = {} outside [{}, {}]", names[j], x[j], lower[j], upper[j]);
    if (integer[j] && std::abs(x[j] - std::round(x[j])) > 1e-5)
      return fmt::format("column {} = {} is not integral", names[j], x[j]);
  }
  for (const Row& r : rows) {
    double sum = 0.0, scale = 1.0;
    for (std::size_t k = 0; k < r.cols.size(); ++k) {
      sum += r.coefs[k] * x[r.cols[k]];
      scale = std::max(scale, std::abs(r.coefs[k] * x[r.cols[k]]));
    }
    if (sum < r.lower - tol * scale || sum > r.upper + tol * scale)
      return fmt::format("row {} = {} outside [{}, {}]", r.name, sum, r.lower, r.upper);
  }
  return "";
}

const char* to_string(MilpStatus status) {
  switch (status) {
    case MilpStatus::optimal:
      return "optimal";
    case MilpStatus::feasible:
      return "feasible";
    case MilpStatus::infeasible:
      return "infeasible";
    case MilpStatus::no_solution:
      return "no_solution";
    case MilpStatus::not_solved:
      return "not_solved";
  }
  return "unknown";
}

std::string write_lp(const MilpModel& m) {
  std::ostringstream out;
  auto term = [&](double c, int j) {
    out << (c < 0 ? " - " : " + ") << number(std::abs(c)) << ' ' << m.names[j];
  };
  out << "\\ Flux co-scheduling MILP (see docs/models.md)\nMinimize\n obj:";
  for (int j = 0; j < m.columns(); ++j)
    if (m.cost[j] != 0.0) term(m.cost[j], j);
  out << "\nSubject To\n";
  for (const auto& r : m.rows) {
    out << ' ' << r.name << ':';
    for (std::size_t k = 0; k < r.cols.size(); ++k) term(r.coefs[k], r.cols[k]);
    if (r.lower == r.upper)
      out << " = " << number(r.lower) << '\n';
    else if (std::isfinite(r.lower))
      out << " >= " << number(r.lower) << '\n';
    else
      out << " <= " << number(r.upper) << '\n';
  }
  out << "Bounds\n";
  for (int j = 0; j < m.columns(); ++j) {
    out << ' ' << (std::isfinite(m.lower[j]) ? number(m.lower[j]) : "-inf") << " <= " << m.names[j]
        << " <= " << (std::isfinite(m.upper[j]) ? number(m.upper[j]) : "+inf") << '\n';
  }
  out << "Generals\n";
  for (int j = 0; j < m.columns(); ++j)
    if (m.integer[j]) out << ' ' << m.names[j] << '\n';
  out << "End\n";
  return out.str();
}

std::string write_mps(const MilpModel& m) {
  std::ostringstream out;
  out << "NAME          FLUX\nROWS\n N  obj\n";
  for (const auto& r : m.rows)
    out << ' '
        << (r.lower == r.upper       ? 'E'
            : std::isfinite(r.lower) ? 'G'
                                     : 'L')
        << "  " << r.name << '\n';
  std::vector<std::vector<std::pair<int, double>>> by_col(m.columns());
  for (std::size_t i = 0; i < m.rows.size(); ++i)
    for (std::size_t k = 0; k < m.rows[i].cols.size(); ++k)
      by_col[m.rows[i].cols[k]].emplace_back(static_cast<int>(i), m.rows[i].coefs[k]);
  out << "COLUMNS\n";
  bool in_int = false;
  for (int j = 0; j < m.columns(); ++j) {
    if (static_cast<bool>(m.integer[j]) != in_int) {
      out << "    MARKER    'MARKER'    " << (in_int ? "'INTEND'" : "'INTORG'") << '\n';
      in_int = !in_int;
    }
    if (m.cost[j] != 0.0) out << "    " << m.names[j] << "  obj  " << number(m.cost[j]) << '\n';
    for (auto [i, c] : by_col[j])
      out << "    " << m.names[j] << "  " << m.rows[i].name << "  " << number(c) << '\n';
    if (m.cost[j] == 0.0 && by_col[j].empty()) out << "    " << m.names[j] << "  obj  0\n";
  }
  if (in_int) out << "    MARKER    'MARKER'    'INTEND'\n";
  out << "RHS\n";
  for (const auto& r : m.rows) {
    const double rhs = std::isfinite(r.lower) ? r.lower : r.upper;
    if (rhs != 0.0) out << "    RHS  " << r.name << "  " << number(rhs) << '\n';
  }
  out << "BOUNDS\n";
  for (int j = 0; j < m.columns(); ++j) {
    const std::string& n = m.names[j];
    if (!std::isfinite(m.lower[j]))
      out << " MI BND  " << n << '\n';
    else
      out << " LO BND  " << n << "  " << number(m.lower[j]) << '\n';
    if (std::isfinite(m.upper[j]))
      out << " UP BND  " << n << "  " << number(m.upper[j]) << '\n';
    else
      out << " PL BND  " << n << '\n';
  }
  out << "ENDATA\n";
  return out.str();
}

std::vector<double> read_solution(const MilpModel& model, const std::string& text,
                                  const std::string& label) {
  std::unordered_map<std::string, int> index;
  for (int j = 0; j < model.columns(); ++j) index.emplace(model.names[j], j);
  std::vector<double> x(model.columns(), 0.0);
  std::istringstream in(text);
  std::string line;
  int line_no = 0, values = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream words(line);
    std::vector<std::string> tok{std::istream_iterator<std::string>(words), {}};
    if (tok.size() >= 2 && tok[0] == "#" && (tok[1] == "Rows" || tok[1] == "Dual")) break;  // HiGHS
    if (tok.empty() || tok[0][0] == '#' || tok[0] == "Objective") continue;
    double v = 0.0, ignored = 0.0;
    // "name value" or CBC's "index name value reduced-cost".
    std::size_t at = tok.size() >= 3 && parse_number(tok[0], ignored) ? 1 : 0;
    if (tok.size() < at + 2 || !parse_number(tok[at + 1], v)) continue;  // a header line
    auto it = index.find(tok[at]);
    if (it == index.end())
      throw InputError(label, fmt::format("line {}", line_no),
                       fmt::format("a column of this model, not '{}'", tok[at]));
    x[it->second] = v;
    ++values;
  }
  if (values == 0) throw InputError(label, "", "'name value' lines for the model's columns");
  if (const std::string bad = model.violation(x, 1e-6); !bad.empty())
    throw InputError(label, "", "a feasible solution of this model, but " + bad);
  return x;
}

}  // namespace flux
