#include "matrix/line_packing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <set>

#include "milp/column_lp.hpp"

namespace flux::matrix {
namespace {

constexpr std::size_t kMaxLpEntries = 128;
constexpr int kMaxRoundsPerTest = 50;
constexpr double kCellsPerSwitch = 1024;   // knapsack grid: (T - delta) / 1024
constexpr double kMaxCells = 1 << 17;      // coarser beyond, for very large delta / T
constexpr double kSubsetFillCells = 1024;  // subset-fill grid: T / 1024

// A packing that fits shows t feasible: the entries whole into the tightest bin that takes them
// (best fit), then those left over in pieces, each costing delta, into the emptiest bins (the
// last piece into the tightest bin that takes it). `entries` is sorted descending.
bool best_fit_fits(const std::vector<double>& entries, int s, double delta, double t) {
  std::multiset<double> room;
  for (int k = 0; k < s; ++k) room.insert(t);
  const auto place = [&](double size) {
    const auto bin = room.lower_bound(size);
    if (bin == room.end()) return false;
    const double left = *bin - size;
    room.erase(bin);
    room.insert(left);
    return true;
  };
  std::vector<double> rest;
  for (const double d : entries)
    if (!place(d + delta)) rest.push_back(d);
  for (double left : rest)
    while (!place(left + delta)) {
      const auto emptiest = std::prev(room.end());
      if (*emptiest <= delta) return false;
      left -= *emptiest - delta;
      room.erase(emptiest);
      room.insert(0.0);
    }
  return true;
}

enum class Rounding { down, up };

// 0/1 knapsack over sizes rounded to multiples of `unit`, for every capacity up to `max_capacity`
// at once (dynamic programming over the grid). Rounded down, every group that truly fits a
// capacity still fits, so best() is an upper bound. Rounded up, every group that group() returns
// truly fits. One object serves many solves without reallocating.
class Knapsack {
 public:
  void solve(const std::vector<double>& value, const std::vector<double>& size, double unit,
             double max_capacity, Rounding rounding) {
    unit_ = unit;
    cells_ = static_cast<std::size_t>(max_capacity / unit) + 1;
    items_.clear();
    cells_of_.clear();
    for (std::size_t e = 0; e < value.size(); ++e)
      if (value[e] > 0) items_.push_back(e);
    best_.assign(cells_, 0.0);
    taken_.assign(rounding == Rounding::up ? (items_.size() * cells_ + 63) / 64 : 0, 0);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      // Down: a relative slack so that a quotient rounded up across a grid point by floating
      // point still counts the cell below (an upper bound must never lose a fitting group).
      const double q = size[items_[i]] / unit;
      const auto cells =
          static_cast<std::size_t>(rounding == Rounding::up ? std::ceil(q) : q * (1 - 1e-12));
      const double v = value[items_[i]];
      for (std::size_t c = cells_; c-- > cells;)
        if (best_[c - cells] + v > best_[c]) {
          best_[c] = best_[c - cells] + v;
          if (!taken_.empty())
            taken_[(i * cells_ + c) / 64] |= std::uint64_t{1} << ((i * cells_ + c) % 64);
        }
      cells_of_.push_back(cells);
    }
  }

  [[nodiscard]] double best(double capacity) const { return best_[cell(capacity)]; }

  // Rounding::up only: the items (indices into `value`) of best(capacity).
  [[nodiscard]] std::vector<int> group(double capacity) const {
    std::vector<int> g;
    std::size_t c = cell(capacity);
    for (std::size_t i = items_.size(); i-- > 0;)
      if (taken_[(i * cells_ + c) / 64] >> ((i * cells_ + c) % 64) & 1) {
        g.push_back(static_cast<int>(items_[i]));
        c -= cells_of_[i];
      }
    return g;
  }

  [[nodiscard]] long long work() const { return static_cast<long long>(items_.size() * cells_); }

 private:
  [[nodiscard]] std::size_t cell(double capacity) const {
    return std::min(cells_ - 1, static_cast<std::size_t>(capacity / unit_));
  }
  double unit_ = 1.0;
  std::size_t cells_ = 1;
  std::vector<std::size_t> items_, cells_of_;
  std::vector<double> best_;
  std::vector<std::uint64_t> taken_;  // bit (i, c): item i taken at cell c in the table after i
};

// A second witness, for when best fit fails near a tight T: fill one switch at a time with the
// remaining entries that fill it most, until the rest fits as one chain on the switches left.
// Appends the switch fills it made to `groups` (good first columns for the LP when it fails).
bool subset_fill_fits(const std::vector<double>& entries, int s, double delta, double t,
                      long long& work, std::vector<std::vector<int>>& groups) {
  std::vector<double> rest(entries.size());
  std::transform(entries.begin(), entries.end(), rest.begin(), [&](double d) { return d + delta; });
  std::vector<int> ids(entries.size());
  std::iota(ids.begin(), ids.end(), 0);
  Knapsack fill;
  for (int left = s; left > 0 && work > 0; --left) {
    const double rest_size = std::accumulate(rest.begin(), rest.end(), 0.0);
    if (rest_size - delta <= left * (t - delta)) return true;  // one chain over `left` switches
    fill.solve(rest, rest, t / kSubsetFillCells, t, Rounding::up);
    work -= fill.work();
    std::vector<int> g = fill.group(t);
    if (g.empty()) return false;
    std::sort(g.begin(), g.end(), std::greater<>());
    std::vector<int>& group = groups.emplace_back();
    for (const int i : g) {
      group.push_back(ids[static_cast<std::size_t>(i)]);
      rest.erase(rest.begin() + i);
      ids.erase(ids.begin() + i);
    }
  }
  return false;
}

}  // namespace

LinePacking::LinePacking(std::span<const double> entries, int switches, double delta)
    : entries_(entries.begin(), entries.end()), s_(switches), delta_(delta) {
  std::sort(entries_.begin(), entries_.end(), std::greater<>());
}

bool LinePacking::packs(double t) const {
  return t > delta_ && best_fit_fits(entries_, s_, delta_, t);
}

bool LinePacking::infeasible(double t, long long& work) {
  const double piece = t - delta_;
  if (entries_.empty()) return false;
  if (!(piece > 0)) return true;
  if (entries_.front() > s_ * piece * (1 + 1e-12)) return true;  // even s slots cannot serve it
  if (best_fit_fits(entries_, s_, delta_, t) || work <= 0) return false;
  std::vector<std::vector<int>> fills;
  if (subset_fill_fits(entries_, s_, delta_, t, work, fills)) return false;
  for (std::vector<int>& g : fills)
    if (g.size() > 1) groups_.push_back(std::move(g));
  return entries_.size() <= kMaxLpEntries && lp_infeasible(t, work);
}

bool LinePacking::lp_infeasible(double t, long long& work) {
  const double piece = t - delta_;
  const std::size_t k = entries_.size();
  std::vector<double> size(k);
  for (std::size_t e = 0; e < k; ++e) size[e] = entries_[e] + delta_;
  const double total = std::accumulate(size.begin(), size.end(), 0.0);
  const double max_capacity = std::min(total, s_ * piece + delta_) * (1 + 1e-12);
  const double unit = std::max(piece / kCellsPerSwitch, max_capacity / kMaxCells);
  // b_T(G), rounded down at a breakpoint: a cost below the true one only weakens the LP.
  const auto switches_for = [&](const std::vector<int>& g) {
    double g_size = 0.0;
    for (const int e : g) g_size += size[static_cast<std::size_t>(e)];
    return std::max(1.0, std::ceil((g_size - delta_) / piece * (1 - 1e-12)));
  };
  milp::ColumnLp lp(std::vector<double>(k, 1.0));
  for (int e = 0; e < static_cast<int>(k); ++e) lp.add_column({e}, switches_for({e}));
  for (const std::vector<int>& g : groups_)
    if (const double cost = switches_for(g); cost <= s_) lp.add_column(g, cost);
  Knapsack pricing, relaxed;
  for (int round = 0; round < kMaxRoundsPerTest && work > 0; ++round) {
    if (!lp.solve() || lp.objective() <= s_) return false;  // the LP cannot exceed s any more
    const std::vector<double>& y = lp.duals();
    // Pricing picks groups that truly fit (sizes rounded up); the proof bounds every group that
    // does (sizes rounded down).
    pricing.solve(y, size, unit, max_capacity, Rounding::up);
    relaxed.solve(y, size, unit, max_capacity, Rounding::down);
    work -= pricing.work() + relaxed.work();
    double theta = 1.0;  // >= max_G y(G) / b_T(G) over every group on at most s switches
    bool added = false;
    for (int b = 1; b <= s_; ++b) {
      const double capacity = std::min(b * piece + delta_, total) * (1 + 1e-12);
      theta = std::max(theta, relaxed.best(capacity) / b);
      std::vector<int> g = pricing.group(capacity);
      const double cost = switches_for(g);
      if (g.size() > 1 && pricing.best(capacity) > cost + 1e-7) {
        lp.add_column(g, cost);
        groups_.push_back(std::move(g));
        added = true;
      }
      if (capacity >= total) break;  // every entry fits: larger b only costs more
    }
    if (std::accumulate(y.begin(), y.end(), 0.0) / theta > s_ * (1 + 1e-9)) return true;
    if (!added) return false;
  }
  return false;
}

}  // namespace flux::matrix
