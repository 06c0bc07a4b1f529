#include "spectra/plan_search.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "milp/backend.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/lp_weights.hpp"

namespace flux::spectra {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct PieceAt {
  int perm = 0, sw = 0;
};

struct Solution {
  bool ok = false;
  double makespan = kInf;
  double total = kInf;    // Σ durations + δ per piece: the tie-break between equal makespans
  std::vector<double> x;  // [piece]
  [[nodiscard]] bool better_than(const Solution& o) const {
    if (!ok) return false;
    if (makespan < o.makespan * (1 - 1e-9)) return true;
    return makespan <= o.makespan * (1 + 1e-12) && total < o.total * (1 - 1e-9);
  }
};

// The LP of the header for the pieces `at` on `switches` switches.
class PlanLp {
 public:
  PlanLp(const CoverRows& rows, int perms, int switches, double delta)
      : rows_(rows), perms_(perms), switches_(switches), delta_(delta) {}

  [[nodiscard]] Solution solve(const std::vector<PieceAt>& at) const {
    milp::Model m;
    // The makespan first; a tiny weight on the durations picks, among the plans of least
    // makespan, one that does not pad pieces needlessly (slack the next drop can use).
    const int t = m.add_column("T", 0.0, kInf, 1.0, false);
    std::vector<std::vector<int>> of_perm(static_cast<std::size_t>(perms_));
    std::vector<std::vector<int>> on_switch(static_cast<std::size_t>(switches_));
    for (std::size_t p = 0; p < at.size(); ++p) {
      const int c = m.add_column(fmt::format("x{}", p), 0.0, kInf, 1e-6, false);
      of_perm[static_cast<std::size_t>(at[p].perm)].push_back(c);
      on_switch[static_cast<std::size_t>(at[p].sw)].push_back(c);
    }
    const auto cover = [&](const std::string& name, const std::vector<int>& ls, double need) {
      std::vector<int> cols;
      for (const int l : ls) {
        const auto& c = of_perm[static_cast<std::size_t>(l)];
        cols.insert(cols.end(), c.begin(), c.end());
      }
      if (cols.empty()) return false;  // the entries lost their last permutation
      m.add_row(name, cols, std::vector<double>(cols.size(), 1.0), '>', need);
      return true;
    };
    for (int l = 0; l < perms_; ++l)
      if (const double lb = rows_.lb[static_cast<std::size_t>(l)];
          lb > 0.0 && !cover(fmt::format("lb{}", l), {l}, lb))
        return {};
    for (std::size_t r = 0; r < rows_.rows.size(); ++r)
      if (!cover(fmt::format("cover{}", r), rows_.rows[r].first, rows_.rows[r].second)) return {};
    for (int sw = 0; sw < switches_; ++sw) {
      std::vector<int> cols = on_switch[static_cast<std::size_t>(sw)];
      if (cols.empty()) continue;
      const double setup = delta_ * static_cast<double>(cols.size());
      std::vector<double> coefs(cols.size(), 1.0);
      cols.push_back(t);
      coefs.push_back(-1.0);
      m.add_row(fmt::format("load{}", sw), std::move(cols), std::move(coefs), '<', -setup);
    }
    milp::Limits limits;
    limits.time_limit = kInf;  // a small LP; the budget is the number of solves
    const milp::Result r = milp::CbcBackend().solve(m, limits);
    if (r.status != milp::Status::optimal) return {};
    Solution out{true, r.values[static_cast<std::size_t>(t)], 0.0, {}};
    out.x.assign(r.values.begin() + 1, r.values.end());
    for (double& v : out.x) v = std::max(v, 0.0);
    out.total =
        std::accumulate(out.x.begin(), out.x.end(), 0.0) + delta_ * static_cast<double>(at.size());
    return out;
  }

 private:
  const CoverRows& rows_;
  int perms_, switches_;
  double delta_;
};

// The plan's pieces, duplicates of a permutation on one switch merged.
std::vector<PieceAt> pieces_of(const matrix::SwitchPlan& plan, double delta) {
  matrix::SwitchPlan merged = plan;
  (void)merge_duplicate_pieces(merged, delta);
  std::vector<PieceAt> at;
  for (std::size_t sw = 0; sw < merged.pieces.size(); ++sw)
    for (const matrix::Piece& p : merged.pieces[sw]) at.push_back({p.perm, static_cast<int>(sw)});
  return at;
}

// The pieces with a duration as a decomposition and plan, coverage repaired exactly: the LP's
// shortfall (its tolerance) is added to the first covering permutation's longest piece.
SearchedPlan build(const Support& s, const matrix::Decomposition& dec, int switches,
                   const std::vector<PieceAt>& at, const std::vector<double>& x, double delta) {
  std::vector<int> index(dec.perms.size(), -1);  // old permutation -> new
  SearchedPlan out;
  std::vector<std::pair<PieceAt, double>> kept;
  for (std::size_t p = 0; p < at.size(); ++p) {
    if (x[p] <= 0.0) continue;
    int& k = index[static_cast<std::size_t>(at[p].perm)];
    if (k < 0) {
      k = static_cast<int>(out.dec.perms.size());
      out.dec.perms.push_back(dec.perms[static_cast<std::size_t>(at[p].perm)]);
      out.dec.weights.push_back(0.0);
    }
    out.dec.weights[static_cast<std::size_t>(k)] += x[p];
    kept.push_back({{k, at[p].sw}, x[p]});
  }
  std::vector<double> before = out.dec.weights;
  (void)repair_coverage(s, out.dec.perms, out.dec.weights);
  out.plan.pieces.assign(static_cast<std::size_t>(switches), {});
  out.plan.load.assign(static_cast<std::size_t>(switches), 0.0);
  std::vector<int> longest(out.dec.perms.size(), -1);  // index into kept
  for (std::size_t q = 0; q < kept.size(); ++q) {
    int& b = longest[static_cast<std::size_t>(kept[q].first.perm)];
    if (b < 0 || kept[q].second > kept[static_cast<std::size_t>(b)].second) b = static_cast<int>(q);
  }
  for (std::size_t k = 0; k < out.dec.perms.size(); ++k)
    kept[static_cast<std::size_t>(longest[k])].second += out.dec.weights[k] - before[k];
  // Heaviest permutation first, as every decomposition of the portfolio.
  std::vector<int> order(out.dec.perms.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return out.dec.weights[static_cast<std::size_t>(a)] >
           out.dec.weights[static_cast<std::size_t>(b)];
  });
  std::vector<int> rank(order.size());
  matrix::Decomposition sorted;
  for (std::size_t k = 0; k < order.size(); ++k) {
    rank[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    sorted.perms.push_back(std::move(out.dec.perms[static_cast<std::size_t>(order[k])]));
    sorted.weights.push_back(out.dec.weights[static_cast<std::size_t>(order[k])]);
  }
  out.dec = std::move(sorted);
  for (const auto& [piece, d] : kept) {
    out.plan.pieces[static_cast<std::size_t>(piece.sw)].push_back(
        {rank[static_cast<std::size_t>(piece.perm)], d});
    out.plan.load[static_cast<std::size_t>(piece.sw)] += delta + d;
  }
  return out;
}

// The plans one step from `at` at piece p: without it, then with it moved whole to the
// `moves` switches with the fewest pieces that do not play its permutation yet (ties: lower
// index), where it may fill a switch whose pieces the LP could not stretch.
std::vector<std::vector<PieceAt>> neighbours(const std::vector<PieceAt>& at, std::size_t p,
                                             int switches, int moves) {
  std::vector<std::vector<PieceAt>> out;
  out.push_back(at);
  out.back().erase(out.back().begin() + static_cast<std::ptrdiff_t>(p));
  std::vector<int> count(static_cast<std::size_t>(switches), 0);
  for (const PieceAt& q : at) count[static_cast<std::size_t>(q.sw)] += 1;
  for (const PieceAt& q : at)
    if (q.perm == at[p].perm) count[static_cast<std::size_t>(q.sw)] = -1;  // plays it already
  std::vector<int> to;
  for (int sw = 0; sw < switches; ++sw)
    if (count[static_cast<std::size_t>(sw)] >= 0) to.push_back(sw);
  std::stable_sort(to.begin(), to.end(), [&](int a, int b) {
    return count[static_cast<std::size_t>(a)] < count[static_cast<std::size_t>(b)];
  });
  to.resize(std::min(to.size(), static_cast<std::size_t>(std::max(moves, 0))));
  for (const int sw : to) {
    out.push_back(at);
    out.back()[p].sw = sw;
  }
  return out;
}

}  // namespace

SearchedPlan search_plan(const Support& s, const matrix::Decomposition& dec,
                         const matrix::SwitchPlan& plan, const PlanSearchOptions& opt) {
  const int switches = static_cast<int>(plan.pieces.size());
  const CoverRows rows = cover_rows(s, dec.perms);
  const PlanLp lp(rows, static_cast<int>(dec.perms.size()), switches, opt.delta);
  std::vector<PieceAt> at = pieces_of(plan, opt.delta);
  Solution best = lp.solve(at);
  if (!best.ok) return {};
  int budget = opt.max_lps - 1;
  for (bool kept = true; kept && budget > 0;) {
    kept = false;
    std::vector<std::size_t> order(at.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return best.x[a] < best.x[b]; });
    for (const std::size_t p : order) {
      for (std::vector<PieceAt>& trial : neighbours(at, p, switches, opt.moves)) {
        if (budget-- <= 0) break;
        if (Solution sol = lp.solve(trial); sol.better_than(best)) {
          at = std::move(trial);
          best = std::move(sol);
          kept = true;
          break;
        }
      }
      if (kept || budget <= 0) break;
    }
  }
  return build(s, dec, switches, at, best.x, opt.delta);
}

}  // namespace flux::spectra
