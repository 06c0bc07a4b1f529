#include "matrix/switch_plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace flux::matrix {
namespace {

std::size_t ix(int i) {
  return static_cast<std::size_t>(i);
}

// Switch with the smallest (load, index).
int least_loaded(const std::vector<double>& load) {
  int a = 0;
  for (int m = 1; m < static_cast<int>(load.size()); ++m)
    if (load[ix(m)] < load[ix(a)]) a = m;
  return a;
}

// Switch other than `a` with the largest (load, index): ties go to the larger index.
int most_loaded_except(const std::vector<double>& load, int a) {
  int b = -1;
  for (int m = 0; m < static_cast<int>(load.size()); ++m)
    if (m != a && (b < 0 || load[ix(m)] >= load[ix(b)])) b = m;
  return b;
}

// Largest piece, ties to the larger permutation id.
std::size_t largest_piece(const std::vector<Piece>& pieces) {
  std::size_t best = 0;
  for (std::size_t q = 1; q < pieces.size(); ++q) {
    const Piece& p = pieces[q];
    const Piece& b = pieces[best];
    if (p.duration > b.duration || (p.duration == b.duration && p.perm > b.perm)) best = q;
  }
  return best;
}

}  // namespace

SwitchPlan lpt_assign(const std::vector<double>& weights, int switches, double delta) {
  SwitchPlan plan;
  plan.pieces.resize(ix(switches));
  plan.load.assign(ix(switches), 0.0);
  using Entry = std::pair<double, int>;  // (load, switch): min-heap pops the smallest index on ties
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (int m = 0; m < switches; ++m) heap.push({0.0, m});
  for (std::size_t l = 0; l < weights.size(); ++l) {
    const int m = heap.top().second;
    heap.pop();
    plan.load[ix(m)] += delta + weights[l];
    plan.pieces[ix(m)].push_back({static_cast<int>(l), weights[l]});
    heap.push({plan.load[ix(m)], m});
  }
  return plan;
}

void equalize_reference(SwitchPlan& plan, double delta) {
  const int s = static_cast<int>(plan.load.size());
  if (s <= 1) return;
  std::size_t pieces = 0;
  for (const auto& p : plan.pieces) pieces += p.size();
  // The reference has no cap; with δ > 0 it stops after a few dozen splits in practice (GPT-32,
  // s = 16: 15-25), but with δ = 0 only exact equality stops it and the loads converge only
  // geometrically, so cap the splits at 8·s·(K+1).
  const std::size_t cap = 8 * static_cast<std::size_t>(s) * (pieces + 1);
  for (std::size_t iter = 0; iter < cap; ++iter) {
    const int a = least_loaded(plan.load);
    const int b = most_loaded_except(plan.load, a);
    if (plan.load[ix(b)] - plan.load[ix(a)] <= delta) return;  // a split costs δ: cannot help
    const double target = (plan.load[ix(a)] + plan.load[ix(b)] + delta) / 2;
    const double x = plan.load[ix(b)] - target;
    auto& from = plan.pieces[ix(b)];
    if (from.empty()) return;
    Piece& big = from[largest_piece(from)];
    if (big.duration <= x) return;  // the reference stops entirely here
    big.duration -= x;
    plan.pieces[ix(a)].push_back({big.perm, x});
    plan.load[ix(b)] -= x;
    plan.load[ix(a)] += delta + x;
    ++plan.splits;
  }
}

namespace {

// Walks switch `pieces`' timeline (descending duration, ties: larger permutation id first, each
// piece preceded by δ) and calls f(piece, start, end) for every non-empty piece. `order` is a
// reused buffer. plan_to_slots and plan_makespan share it so their makespans agree bit for bit.
template <class F>
void walk_timeline(const std::vector<Piece>& pieces, double delta, std::vector<Piece>& order,
                   F&& f) {
  order.assign(pieces.begin(), pieces.end());
  std::stable_sort(order.begin(), order.end(), [](const Piece& x, const Piece& y) {
    return x.duration > y.duration || (x.duration == y.duration && x.perm > y.perm);
  });
  double t = 0.0;
  for (const Piece& p : order) {
    const double start = t + delta;
    const double end = start + p.duration;
    t = end;
    if (p.duration <= 0.0) continue;  // an empty piece carries nothing: no slot
    f(p, start, end);
  }
}

}  // namespace

void plan_to_slots(const SwitchPlan& plan, const Decomposition& dec, double delta,
                   MatrixSchedule& out) {
  out.slots.clear();
  out.makespan = 0.0;
  std::vector<Piece> order;
  for (std::size_t m = 0; m < plan.pieces.size(); ++m)
    walk_timeline(plan.pieces[m], delta, order, [&](const Piece& p, double start, double end) {
      out.slots.push_back({static_cast<int>(m), start, end, dec.perms[ix(p.perm)]});
      out.makespan = std::max(out.makespan, end);
    });
}

double plan_makespan(const SwitchPlan& plan, double delta) {
  double makespan = 0.0;
  std::vector<Piece> order;
  for (const auto& pieces : plan.pieces)
    walk_timeline(pieces, delta, order,
                  [&](const Piece&, double, double end) { makespan = std::max(makespan, end); });
  return makespan;
}

MatrixResult schedule_decomposition(const Decomposition& dec, const MatrixProblem& p,
                                    bool equalize) {
  SwitchPlan plan = lpt_assign(dec.weights, p.switches, p.delta);
  if (equalize) equalize_reference(plan, p.delta);
  return plan_result(plan, dec, p);
}

MatrixResult plan_result(const SwitchPlan& plan, const Decomposition& dec, const MatrixProblem& p) {
  MatrixResult r;
  r.schedule.n = p.time.n();
  r.schedule.switches = p.switches;
  r.schedule.delta = p.delta;
  plan_to_slots(plan, dec, p.delta, r.schedule);
  r.permutations = static_cast<int>(dec.perms.size());
  r.splits = plan.splits;
  return r;
}

}  // namespace flux::matrix
