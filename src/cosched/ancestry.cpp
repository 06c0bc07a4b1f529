#include "cosched/ancestry.hpp"

#include <algorithm>
#include <span>

namespace flux::cosched {

LazyAncestry::LazyAncestry(const CoschedInstance& inst)
    : inst_(inst), rank_(inst.workload.tasks.size(), 0) {
  for (std::size_t k = 0; k < inst.topo.size(); ++k) rank_[inst.topo[k]] = static_cast<int>(k);
  back_.mark.assign(rank_.size(), 0);
  fwd_.mark.assign(rank_.size(), 0);
}

// Every task on a path a → … → b has rank and ES between a's and b's (ES never decreases along an
// edge because durations are non-negative), so a backward search from b may stop below a's labels
// and a forward search from a above b's.
bool LazyAncestry::covers(const Search& s, int v, bool backward) const {
  if (backward) return rank_[v] >= s.rank_limit && inst_.earliest[v] >= s.es_limit;
  return rank_[v] <= s.rank_limit && inst_.earliest[v] <= s.es_limit;
}

void LazyAncestry::run(Search& s, int root, int rank_limit, double es_limit, bool backward) const {
  s.root = root;
  s.rank_limit = rank_limit;
  s.es_limit = es_limit;
  if (++s.stamp == 0) {  // wrapped: clear the marks once every 2^32 searches
    std::fill(s.mark.begin(), s.mark.end(), 0);
    s.stamp = 1;
  }
  stack_.assign(1, root);
  s.mark[root] = s.stamp;
  while (!stack_.empty()) {
    const int v = stack_.back();
    stack_.pop_back();
    ++visited_;
    for (int u : backward ? std::span<const int>(inst_.workload.tasks[v].after)
                          : std::span<const int>(inst_.succ[v]))
      if (s.mark[u] != s.stamp && covers(s, u, backward)) {
        s.mark[u] = s.stamp;
        stack_.push_back(u);
      }
  }
}

bool LazyAncestry::ancestor(int a, int b) const {
  const int ta = inst_.messages[a], tb = inst_.messages[b];
  if (a == b || rank_[ta] >= rank_[tb] || inst_.earliest[ta] > inst_.earliest[tb]) return false;
  const bool same_source = a == last_source_;
  last_source_ = a;
  if (back_.root == tb && covers(back_, ta, true)) return back_.mark[ta] == back_.stamp;
  if (fwd_.root == ta && covers(fwd_, tb, false)) return fwd_.mark[tb] == fwd_.stamp;
  // A miss: search from the end that repeats (the previous query's source, else the target),
  // widening a kept search on the same root so that it keeps covering what it covered.
  if (same_source || fwd_.root == ta) {
    const bool same = fwd_.root == ta;
    run(fwd_, ta, same ? std::max(fwd_.rank_limit, rank_[tb]) : rank_[tb],
        same ? std::max(fwd_.es_limit, inst_.earliest[tb]) : inst_.earliest[tb], false);
    return fwd_.mark[tb] == fwd_.stamp;
  }
  const bool same = back_.root == tb;
  run(back_, tb, same ? std::min(back_.rank_limit, rank_[ta]) : rank_[ta],
      same ? std::min(back_.es_limit, inst_.earliest[ta]) : inst_.earliest[ta], true);
  return back_.mark[ta] == back_.stamp;
}

}  // namespace flux::cosched
