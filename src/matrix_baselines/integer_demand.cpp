#include "matrix_baselines/integer_demand.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace flux::matrix_baselines {
namespace {

std::int64_t max_of(const std::vector<std::int64_t>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// Index of the largest slack; -1 when every slack is zero.
int largest_slack(const std::vector<std::int64_t>& slack) {
  const auto it = std::max_element(slack.begin(), slack.end());
  return (it == slack.end() || *it <= 0) ? -1 : static_cast<int>(it - slack.begin());
}

}  // namespace

std::vector<std::int64_t> IntegerDemand::row_sums() const {
  std::vector<std::int64_t> s(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s[static_cast<std::size_t>(i)] += at(i, j);
  return s;
}

std::vector<std::int64_t> IntegerDemand::col_sums() const {
  std::vector<std::int64_t> s(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s[static_cast<std::size_t>(j)] += at(i, j);
  return s;
}

IntegerDemand quantize_up(const Matrix& d, int bits) {
  IntegerDemand m;
  m.n = d.n();
  m.a.assign(d.data().size(), 0);
  const double line = d.max_line_sum();
  if (line <= 0.0) return m;
  m.quantum = std::ldexp(line, -bits);
  for (std::size_t k = 0; k < m.a.size(); ++k)
    m.a[k] = static_cast<std::int64_t>(std::ceil(d.data()[k] / m.quantum));
  return m;
}

IntegerDemand quantize_demand(const Matrix& d, double unit) {
  if (!(unit > 0.0)) return quantize_up(d);
  IntegerDemand m;
  m.n = d.n();
  m.quantum = unit;
  m.a.assign(d.data().size(), 0);
  for (std::size_t k = 0; k < m.a.size(); ++k) m.a[k] = whole_units(d.data()[k] / unit);
  return m;
}

std::int64_t whole_units(double x) {
  if (!(x > 0.0)) return 0;
  const double nearest = std::round(x);
  const double units = std::abs(x - nearest) <= 1e-6 * std::max(1.0, x) ? nearest : std::ceil(x);
  return static_cast<std::int64_t>(std::max(units, 1.0));
}

void apportion_whole_units(std::vector<Matrix>& parts, const Matrix& d, double unit) {
  if (!(unit > 0.0) || parts.empty()) return;
  std::vector<std::pair<double, std::size_t>> remainders(parts.size());
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) {
      std::int64_t left = whole_units(d(i, j) / unit);
      for (std::size_t k = 0; k < parts.size(); ++k) {
        const double x = std::max(0.0, parts[k](i, j) / unit);
        const double whole = std::min(std::floor(x), static_cast<double>(left));
        parts[k](i, j) = whole;
        left -= static_cast<std::int64_t>(whole);
        remainders[k] = {-(x - whole), k};  // largest remainder first, then the lower index
      }
      std::sort(remainders.begin(), remainders.end());
      for (std::size_t r = 0; left > 0; r = (r + 1) % parts.size(), --left)
        parts[remainders[r].second](i, j) += 1.0;
      for (Matrix& m : parts) m(i, j) *= unit;
    }
}

void quick_stuff(IntegerDemand& m, const StuffOptions& opt) {
  std::vector<std::int64_t> rows = m.row_sums(), cols = m.col_sums();
  const std::int64_t target = std::max(max_of(rows), max_of(cols));
  for (auto& v : rows) v = target - v;  // slack
  for (auto& v : cols) v = target - v;
  std::vector<std::pair<int, int>> support;
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j)
      if (m.at(i, j) > 0) support.emplace_back(i, j);
  if (opt.rng) opt.rng->shuffle(support);
  for (const auto& [i, j] : support) {
    auto& ri = rows[static_cast<std::size_t>(i)];
    auto& cj = cols[static_cast<std::size_t>(j)];
    const std::int64_t add = std::min(ri, cj);
    m.at(i, j) += add;
    ri -= add;
    cj -= add;
  }
  // Total row slack equals total column slack, and every pairing empties one of the two, so this
  // ends after at most 2n pairings with all slack gone.
  for (;;) {
    const int i = largest_slack(rows), j = largest_slack(cols);
    if (i < 0 || j < 0) break;
    const std::int64_t add =
        std::min(rows[static_cast<std::size_t>(i)], cols[static_cast<std::size_t>(j)]);
    m.at(i, j) += add;
    rows[static_cast<std::size_t>(i)] -= add;
    cols[static_cast<std::size_t>(j)] -= add;
  }
}

std::int64_t line_sum(const IntegerDemand& m) {
  std::int64_t s = 0;
  for (int j = 0; j < m.n; ++j) s += m.at(0, j);
  return s;
}

std::int64_t peel_permutation(IntegerDemand& m, const std::vector<int>& perm) {
  std::int64_t w = std::numeric_limits<std::int64_t>::max();
  for (int i = 0; i < m.n; ++i) w = std::min(w, m.at(i, perm[static_cast<std::size_t>(i)]));
  for (int i = 0; i < m.n; ++i) m.at(i, perm[static_cast<std::size_t>(i)]) -= w;
  return w;
}

}  // namespace flux::matrix_baselines
