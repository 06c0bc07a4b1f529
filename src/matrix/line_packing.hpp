#pragma once
// Whether one line's entries can be served within a makespan T: the test behind LB4 (bounds.hpp).
//
// Take a line p (row or column) with entries d_e and any valid schedule of makespan T on s
// switches, all-stop or per-port. On switch k port p serves entry e for a total a_ke, and before
// each circuit to a new partner (the first one included) it waits delta, so
//   sum_e a_ke + delta * |{e : a_ke > 0}| <= T  for every k,   sum_k a_ke >= d_e  for every e.
// That is bin packing with item fragmentation: items of size d_e + delta in s bins of capacity
// T, every fragment beyond an item's first costing delta more. In the graph of entries and
// switches with an edge per fragment, a connected component G of entries spread over b switches
// has at least |G| + b - 1 edges, so b T >= S_G + (b - 1) delta with S_G = sum_{e in G}
// (d_e + delta), i.e. b >= b_T(G) = max(1, ceil((S_G - delta) / (T - delta))). Conversely a
// group laid out in sequence over b_T(G) switches, split at each switch boundary, fits. So T is
// feasible for the line iff its entries can be partitioned into groups with sum b_T(G) <= s, and
// the least such T is a makespan lower bound. It is at least LB2's per-line value (which counts
// only the fragments each entry needs on its own) and larger when the entries do not share the s
// switches evenly: 3 entries of 0.5 on 2 switches at delta = 0.1 need T = 0.95 (one entry split
// in two), where LB2 gives 0.9.
//
// The test proves infeasibility only; false means "not proven" (the caller then keeps the bound
// it had, so the bound is valid whatever the test misses):
//  1. two greedy packings; if one fits, T is feasible and no LP runs: best fit (entries whole
//     into the tightest switch that takes them, the rest in pieces over the emptiest), and subset
//     fill (fill one switch at a time as full as the remaining entries allow, until the rest fits
//     as one chain on the switches left);
//  2. otherwise the configuration LP, minimise sum_G b_T(G) x_G s.t. each entry is covered,
//     x >= 0, grown by column generation (milp/column_lp.hpp) from the single entries. Its
//     columns come from a 0/1 knapsack per b <= s: the most dual weight y(G) with S_G <=
//     b (T - delta) + delta, solved for every b at once by dynamic programming over a grid of
//     (T - delta) / 2048, sizes rounded up (so the group found truly fits). The proof uses the
//     same knapsack with sizes rounded down, an upper bound on every group that fits: for any
//     y >= 0 and theta >= max_G y(G) / b_T(G), sum y / max(theta, 1) is a lower bound on the LP
//     and hence on the least sum b_T(G) (Farley's bound), so T is proven infeasible when it
//     exceeds s, whatever the LP's tolerance or an iteration limit.
// Cost: O(k log s) for best fit on k entries, a k x 1024 subset-sum table per switch for subset
// fill; the LP, when reached, a few dozen warm re-solves of a k-row LP, each with two knapsack
// tables of k x 2048 s cells. Lines of more than 128 entries skip the LP (the test then only
// misses proofs). All but best fit count against a work budget the caller shares among lines.
#include <span>
#include <vector>

namespace flux::matrix {

// The test for one line at any T; the groups its LP generates are kept as starting columns for
// the next T (a bisection asks about nearby T, where the same groups matter).
class LinePacking {
 public:
  // `entries`: the line's non-zero entries in time units, any order. s >= 1, delta >= 0.
  LinePacking(std::span<const double> entries, int switches, double delta);

  // True when best fit packs the line at t (so t is feasible); O(k log s), no work counted.
  [[nodiscard]] bool packs(double t) const;

  // True only when no schedule of makespan t serves the line on the s switches. `work`: table
  // cells left for the whole matrix, decremented here; at zero only best fit and the entry-size
  // test run (so 2,048 lines cannot stall a bound).
  [[nodiscard]] bool infeasible(double t, long long& work);

 private:
  [[nodiscard]] bool lp_infeasible(double t, long long& work);
  std::vector<double> entries_;  // descending
  int s_;
  double delta_;
  std::vector<std::vector<int>> groups_;  // of two entries or more, generated so far
};

}  // namespace flux::matrix
