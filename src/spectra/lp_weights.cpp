#include "spectra/lp_weights.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "milp/backend.hpp"

namespace flux::spectra {
namespace {

// For every non-zero e, the ascending ids of the permutations through it, in CSR form.
struct Cover {
  std::vector<int> start;  // size nnz+1
  std::vector<int> perm;
  [[nodiscard]] std::pair<const int*, const int*> of(int e) const {
    return {perm.data() + start[static_cast<std::size_t>(e)],
            perm.data() + start[static_cast<std::size_t>(e) + 1]};
  }
};

Cover cover_sets(const Support& s, const std::vector<matrix::Permutation>& perms) {
  std::vector<std::pair<int, int>> hits;  // (entry, perm), perms in ascending order
  hits.reserve(perms.size() * static_cast<std::size_t>(s.n));
  for (std::size_t l = 0; l < perms.size(); ++l)
    for (int i = 0; i < s.n; ++i)
      if (const int e = s.find(i, perms[l][static_cast<std::size_t>(i)]); e >= 0)
        hits.emplace_back(e, static_cast<int>(l));
  Cover c;
  c.start.assign(static_cast<std::size_t>(s.size()) + 1, 0);
  for (const auto& h : hits) ++c.start[static_cast<std::size_t>(h.first) + 1];
  for (std::size_t e = 1; e < c.start.size(); ++e) c.start[e] += c.start[e - 1];
  c.perm.resize(hits.size());
  std::vector<int> next(c.start.begin(), c.start.end() - 1);
  for (const auto& [e, l] : hits)
    c.perm[static_cast<std::size_t>(next[static_cast<std::size_t>(e)]++)] = l;
  return c;
}

int repair(const Support& s, const Cover& cover, std::vector<double>& w) {
  int repairs = 0;
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (first == last) continue;  // precondition violated; the caller's verifier reports it
    double served = 0.0;
    for (const int* l = first; l != last; ++l) served += w[static_cast<std::size_t>(*l)];
    const double shortfall = s.value[static_cast<std::size_t>(e)] - served;
    if (shortfall > 0.0) {
      w[static_cast<std::size_t>(*first)] += shortfall;
      ++repairs;
    }
  }
  return repairs;
}

}  // namespace

int repair_coverage(const Support& s, const std::vector<matrix::Permutation>& perms,
                    std::vector<double>& w) {
  return repair(s, cover_sets(s, perms), w);
}

namespace {

// Solves min Σw s.t. the rows, w >= lb (a pure LP: Clp's dual simplex); empty on failure.
std::vector<double> solve_lp(int k, const std::vector<std::pair<std::vector<int>, double>>& rows,
                             const std::vector<double>& lb) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  milp::Model m;
  for (int l = 0; l < k; ++l)
    m.add_column(fmt::format("w{}", l), lb[static_cast<std::size_t>(l)], kInf, 1.0, false);
  for (const auto& [ls, need] : rows)
    m.add_row(fmt::format("cover{}", m.rows.size()), ls, std::vector<double>(ls.size(), 1.0), '>',
              need);
  milp::Limits limits;
  limits.time_limit = kInf;  // an LP of a few hundred rows; the caller has no budget to pass
  const milp::Result r = milp::CbcBackend().solve(m, limits);
  if (r.status != milp::Status::optimal) return {};
  std::vector<double> w = r.values;
  for (std::size_t l = 0; l < w.size(); ++l) w[l] = std::max(w[l], lb[l]);
  return w;
}

}  // namespace

CoverRows cover_rows(const Support& s, const std::vector<matrix::Permutation>& perms) {
  // Presolve: an entry on a single permutation is a lower bound on that weight. Entries on
  // several permutations give one row per distinct set (largest demand); a row already met at
  // the lower bounds stays met for any w >= lb (non-negative coefficients), so only the rest
  // are kept. On DECOMPOSE output this often leaves no row at all: then w = lb is optimal.
  const Cover cover = cover_sets(s, perms);
  CoverRows out;
  out.lb.assign(perms.size(), 0.0);
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (last - first == 1)
      out.lb[static_cast<std::size_t>(*first)] =
          std::max(out.lb[static_cast<std::size_t>(*first)], s.value[static_cast<std::size_t>(e)]);
  }
  std::map<std::vector<int>, double> rows;  // cover set -> largest demand on it
  for (int e = 0; e < s.size(); ++e) {
    const auto [first, last] = cover.of(e);
    if (last - first < 2) continue;
    double at_lb = 0.0;
    for (const int* l = first; l != last; ++l) at_lb += out.lb[static_cast<std::size_t>(*l)];
    const double v = s.value[static_cast<std::size_t>(e)];
    if (at_lb >= v) continue;
    double& need = rows[std::vector<int>(first, last)];
    need = std::max(need, v);
  }
  out.rows.assign(rows.begin(), rows.end());
  return out;
}

std::vector<double> lp_min_total_weights(const Support& s,
                                         const std::vector<matrix::Permutation>& perms) {
  const int k = static_cast<int>(perms.size());
  if (k == 0) return {};
  const CoverRows c = cover_rows(s, perms);
  std::vector<double> w = c.rows.empty() ? c.lb : solve_lp(k, c.rows, c.lb);
  if (w.empty()) return w;
  (void)repair_coverage(s, perms, w);
  return w;
}

bool reweigh_for_least_total(const Support& s, matrix::Decomposition& dec, bool drop_zeros) {
  std::vector<double> w = lp_min_total_weights(s, dec.perms);
  if (w.empty()) return false;
  dec.weights = std::move(w);
  sort_by_weight(dec);
  if (drop_zeros) drop_zero_weights(dec);
  return true;
}

}  // namespace flux::spectra
