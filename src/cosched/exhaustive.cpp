#include "cosched/exhaustive.hpp"

#include <cmath>
#include <stdexcept>

#include "cosched/conflicts.hpp"

namespace flux::cosched {
namespace {

struct Search {
  const CoschedInstance& inst;
  const MessageClosure& closure;
  std::vector<int> switch_of, order;
  std::vector<char> used;
  ExhaustiveResult best{.placements = {}, .iteration_time = INFINITY, .evaluated = 0};

  void orders() {
    const int nm = inst.message_count();
    if (static_cast<int>(order.size()) == nm) return evaluate();
    for (int m = 0; m < nm; ++m) {
      if (used[m] || !ancestors_done(m)) continue;
      used[m] = 1;
      order.push_back(m);
      orders();
      order.pop_back();
      used[m] = 0;
    }
  }
  bool ancestors_done(int m) const {
    for (int k = 0; k < inst.message_count(); ++k)
      if (!used[k] && closure.ancestor(k, m)) return false;
    return true;
  }
  void evaluate() {
    ++best.evaluated;
    const auto placed = schedule_in_order(inst, switch_of, order);
    if (!placed) return;
    const double t = iteration_time(inst, *placed);
    if (t < best.iteration_time) best = {*placed, t, best.evaluated};
  }
  void assignments(int m) {
    if (m == inst.message_count()) return orders();
    for (int s = 0; s < (m == 0 ? 1 : inst.fabric.ocs); ++s) {
      switch_of[m] = s;
      assignments(m + 1);
    }
  }
};

}  // namespace

ExhaustiveResult exhaustive_optimum(const CoschedInstance& inst) {
  const int nm = inst.message_count();
  if (nm > 10) throw std::invalid_argument("exhaustive_optimum: more than 10 messages");
  const MessageClosure closure(inst);
  Search s{inst, closure, std::vector<int>(nm, 0), {}, std::vector<char>(nm, 0)};
  if (nm == 0) {
    s.evaluate();
    return s.best;
  }
  s.assignments(0);
  return s.best;
}

}  // namespace flux::cosched
