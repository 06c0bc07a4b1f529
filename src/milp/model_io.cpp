#include "milp/model_io.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "core/error.hpp"

namespace flux::milp {
namespace {

std::string number(double v) {
  return fmt::format("{:.17g}", v);
}

bool parse_number(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && std::isfinite(out);
}

}  // namespace

std::string write_lp(const Model& m) {
  std::ostringstream out;
  auto term = [&](double c, int j) {
    out << (c < 0 ? " - " : " + ") << number(std::abs(c)) << ' ' << m.names[j];
  };
  if (!m.title.empty()) out << "\\ " << m.title << '\n';
  out << (m.sense == Sense::maximize ? "Maximize" : "Minimize") << "\n obj:";
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

std::string write_mps(const Model& m) {
  std::ostringstream out;
  out << "NAME          FLUX\n";
  if (m.sense == Sense::maximize) out << "OBJSENSE\n    MAX\n";
  out << "ROWS\n N  obj\n";
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

std::vector<double> read_solution(const Model& model, const std::string& text,
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

}  // namespace flux::milp
