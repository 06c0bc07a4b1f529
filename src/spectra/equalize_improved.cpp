#include "spectra/equalize_improved.hpp"

#include <algorithm>

namespace flux::spectra {
namespace {

std::size_t ix(int i) {
  return static_cast<std::size_t>(i);
}

// Index of `perm`'s piece on a switch, or -1.
int find_piece(const std::vector<matrix::Piece>& pieces, int perm) {
  for (std::size_t q = 0; q < pieces.size(); ++q)
    if (pieces[q].perm == perm) return static_cast<int>(q);
  return -1;
}

struct Move {
  int piece = -1;
  double amount = 0.0;    // duration moved from the busy switch to the idle one
  double busy_after = 0;  // load of the busy switch after the move
};

// The best move of one piece from switch b to switch a (see header).
Move best_move(const matrix::SwitchPlan& plan, int a, int b, double delta) {
  const double la = plan.load[ix(a)], lb = plan.load[ix(b)];
  Move best;
  best.busy_after = lb;
  const auto& from = plan.pieces[ix(b)];
  for (std::size_t q = 0; q < from.size(); ++q) {
    const double d = from[q].duration;
    const double join = find_piece(plan.pieces[ix(a)], from[q].perm) >= 0 ? 0.0 : delta;
    // Whole move: b loses δ + d, a gains join + d.
    const double whole = std::max(lb - delta - d, la + join + d);
    if (whole < best.busy_after) best = {static_cast<int>(q), d, whole};
    // Split so both end equal: lb - x = la + join + x.
    const double x = (lb - la - join) / 2;
    if (x > 0.0 && x < d && lb - x < best.busy_after) best = {static_cast<int>(q), x, lb - x};
  }
  return best;
}

void apply(matrix::SwitchPlan& plan, int a, int b, const Move& mv, double delta) {
  auto& from = plan.pieces[ix(b)];
  matrix::Piece& p = from[ix(mv.piece)];
  const int perm = p.perm;
  const bool whole = mv.amount >= p.duration;
  const int at_a = find_piece(plan.pieces[ix(a)], perm);
  if (at_a >= 0) {
    plan.pieces[ix(a)][ix(at_a)].duration += mv.amount;
    plan.load[ix(a)] += mv.amount;
  } else {
    plan.pieces[ix(a)].push_back({perm, mv.amount});
    plan.load[ix(a)] += delta + mv.amount;
  }
  if (whole) {
    from.erase(from.begin() + mv.piece);
    plan.load[ix(b)] -= delta + mv.amount;
  } else {
    p.duration -= mv.amount;
    plan.load[ix(b)] -= mv.amount;
    if (at_a < 0) ++plan.splits;
  }
}

}  // namespace

double merge_duplicate_pieces(matrix::SwitchPlan& plan, double delta) {
  double saved = 0.0;
  for (std::size_t m = 0; m < plan.pieces.size(); ++m) {
    std::vector<matrix::Piece> merged;
    for (const matrix::Piece& p : plan.pieces[m]) {
      const int q = find_piece(merged, p.perm);
      if (q < 0) {
        merged.push_back(p);
        continue;
      }
      merged[ix(q)].duration += p.duration;
      plan.load[m] -= delta;
      saved += delta;
    }
    plan.pieces[m] = std::move(merged);
  }
  return saved;
}

void equalize_improved(matrix::SwitchPlan& plan, double delta) {
  const int s = static_cast<int>(plan.load.size());
  (void)merge_duplicate_pieces(plan, delta);
  if (s <= 1) return;
  std::size_t pieces = 0;
  for (const auto& p : plan.pieces) pieces += p.size();
  const std::size_t cap = 8 * (static_cast<std::size_t>(s) + pieces);
  for (std::size_t iter = 0; iter < cap; ++iter) {
    const auto [lo, hi] = std::minmax_element(plan.load.begin(), plan.load.end());
    const int a = static_cast<int>(lo - plan.load.begin());
    const int b = static_cast<int>(hi - plan.load.begin());
    if (a == b) return;
    const Move mv = best_move(plan, a, b, delta);
    // Require a real gain so round-off cannot make the loop crawl.
    if (mv.piece < 0 || mv.busy_after >= plan.load[ix(b)] * (1 - 1e-9)) return;
    apply(plan, a, b, mv, delta);
  }
}

double lpt_equalized_length(const std::vector<double>& weights, int switches, double delta) {
  matrix::SwitchPlan plan = matrix::lpt_assign(weights, switches, delta);
  equalize_improved(plan, delta);
  return plan_makespan(plan, delta);
}

}  // namespace flux::spectra
