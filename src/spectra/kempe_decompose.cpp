#include "spectra/kempe_decompose.hpp"

#include <algorithm>
#include <cmath>

namespace flux::spectra {
namespace {

// A swap must gain more than this (relative to the pair's total) to count: round-off cannot loop.
constexpr double kMinGain = 1e-12;

// K colour classes of the support's entries, each a matching: per class, the entry at each row
// and at each column (-1 if none).
class Colouring {
 public:
  Colouring(const Support& s, int classes)
      : s_(s),
        n_(static_cast<std::size_t>(s.n)),
        row_of_(static_cast<std::size_t>(s.size())),
        colour_(row_of_.size(), -1),
        at_row_(n_ * static_cast<std::size_t>(classes), -1),
        at_col_(at_row_.size(), -1),
        seen_(row_of_.size(), 0) {
    for (int i = 0; i < s.n; ++i)
      for (int e = s.row_start[static_cast<std::size_t>(i)];
           e < s.row_start[static_cast<std::size_t>(i) + 1]; ++e)
        row_of_[static_cast<std::size_t>(e)] = i;
  }

  [[nodiscard]] int colour(int e) const { return colour_[static_cast<std::size_t>(e)]; }
  [[nodiscard]] int at_row(int k, int i) const { return at_row_[slot(k, i)]; }
  void set(int e, int k) {
    colour_[static_cast<std::size_t>(e)] = k;
    at_row_[slot(k, row(e))] = e;
    at_col_[slot(k, col(e))] = e;
  }
  void unset(int e) {
    const int k = colour(e);
    at_row_[slot(k, row(e))] = -1;
    at_col_[slot(k, col(e))] = -1;
    colour_[static_cast<std::size_t>(e)] = -1;
  }
  [[nodiscard]] double value(int e) const { return s_.value[static_cast<std::size_t>(e)]; }
  [[nodiscard]] double class_max(int k) const {
    double m = 0.0;
    for (int i = 0; i < s_.n; ++i)
      if (const int e = at_row(k, i); e >= 0) m = std::max(m, value(e));
    return m;
  }

  // Recolours classes a and b for the least sum of their maxima; true if it fell.
  bool improve_pair(int a, int b);

 private:
  [[nodiscard]] std::size_t slot(int k, int line) const {
    return static_cast<std::size_t>(k) * n_ + static_cast<std::size_t>(line);
  }
  [[nodiscard]] int row(int e) const { return row_of_[static_cast<std::size_t>(e)]; }
  [[nodiscard]] int col(int e) const { return s_.col[static_cast<std::size_t>(e)]; }
  // The a/b alternating path or cycle through `e` (appended to comp_), with the largest entry of
  // each colour.
  void component(int e, int a, int b, double& max_a, double& max_b);

  const Support& s_;
  std::size_t n_;
  std::vector<int> row_of_;
  std::vector<int> colour_;
  std::vector<int> at_row_, at_col_;  // [k * n + line]
  std::vector<int> seen_;             // stamp per entry
  int stamp_ = 0;
  std::vector<int> comp_;  // entries of the components of the current pair, one after the other
};

void Colouring::component(int e, int a, int b, double& max_a, double& max_b) {
  const std::size_t first = comp_.size();
  seen_[static_cast<std::size_t>(e)] = stamp_;
  comp_.push_back(e);
  for (std::size_t k = first; k < comp_.size(); ++k) {
    const int x = comp_[k];
    const int other = colour(x) == a ? b : a;
    (colour(x) == a ? max_a : max_b) = std::max(colour(x) == a ? max_a : max_b, value(x));
    for (const int y : {at_row_[slot(other, row(x))], at_col_[slot(other, col(x))]})
      if (y >= 0 && seen_[static_cast<std::size_t>(y)] != stamp_) {
        seen_[static_cast<std::size_t>(y)] = stamp_;
        comp_.push_back(y);
      }
  }
}

bool Colouring::improve_pair(int a, int b) {
  ++stamp_;
  comp_.clear();
  struct Part {
    std::size_t first, last;
    double max_a, max_b;
  };
  std::vector<Part> parts;
  for (const int k : {a, b})
    for (int i = 0; i < s_.n; ++i)
      if (const int e = at_row(k, i); e >= 0 && seen_[static_cast<std::size_t>(e)] != stamp_) {
        Part p{comp_.size(), 0, 0.0, 0.0};
        component(e, a, b, p.max_a, p.max_b);
        p.last = comp_.size();
        parts.push_back(p);
      }
  if (parts.size() < 2) return false;
  // The part holding the heaviest entry keeps its colours: that entry's class is the heavy one.
  const auto heaviest =
      std::max_element(parts.begin(), parts.end(), [](const Part& x, const Part& y) {
        return std::max(x.max_a, x.max_b) < std::max(y.max_a, y.max_b);
      });
  const bool heavy_is_a = heaviest->max_a >= heaviest->max_b;
  double light = heavy_is_a ? heaviest->max_b : heaviest->max_a;
  for (const Part& p : parts)
    if (&p != &*heaviest) light = std::max(light, std::min(p.max_a, p.max_b));
  double max_a = 0.0, max_b = 0.0;
  for (const Part& p : parts) {
    max_a = std::max(max_a, p.max_a);
    max_b = std::max(max_b, p.max_b);
  }
  const double before = max_a + max_b;
  const double after = std::max(heaviest->max_a, heaviest->max_b) + light;
  if (after >= before - kMinGain * before) return false;
  // Swap every other part whose heavy-class side is the lighter one.
  std::vector<int> swap;
  for (const Part& p : parts) {
    if (&p == &*heaviest) continue;
    const double in_heavy = heavy_is_a ? p.max_a : p.max_b;
    const double in_light = heavy_is_a ? p.max_b : p.max_a;
    if (in_light > in_heavy)
      swap.insert(swap.end(), comp_.begin() + static_cast<std::ptrdiff_t>(p.first),
                  comp_.begin() + static_cast<std::ptrdiff_t>(p.last));
  }
  std::vector<int> to(swap.size());
  for (std::size_t k = 0; k < swap.size(); ++k) {
    to[k] = colour(swap[k]) == a ? b : a;
    unset(swap[k]);
  }
  for (std::size_t k = 0; k < swap.size(); ++k) set(swap[k], to[k]);
  return true;
}

// Each entry takes the heaviest permutation of `start` that serves it (a permutation holds one
// entry per line, so its class stays a matching).
void initial_colours(const Support& s, const matrix::Decomposition& start, Colouring& c) {
  std::vector<std::size_t> order(start.perms.size());
  for (std::size_t l = 0; l < order.size(); ++l) order[l] = l;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return start.weights[x] > start.weights[y];
  });
  for (const std::size_t l : order)
    for (int i = 0; i < s.n; ++i)
      if (const int e = s.find(i, start.perms[l][static_cast<std::size_t>(i)]);
          e >= 0 && c.colour(e) < 0)
        c.set(e, static_cast<int>(l));
}

// Class k as a permutation: its entries, the other rows matched to the free columns in order.
matrix::Permutation class_permutation(const Support& s, const Colouring& c, int k) {
  matrix::Permutation p(static_cast<std::size_t>(s.n), -1);
  std::vector<char> used(static_cast<std::size_t>(s.n), 0);
  for (int i = 0; i < s.n; ++i)
    if (const int e = c.at_row(k, i); e >= 0) {
      p[static_cast<std::size_t>(i)] = s.col[static_cast<std::size_t>(e)];
      used[static_cast<std::size_t>(p[static_cast<std::size_t>(i)])] = 1;
    }
  int j = 0;
  for (int i = 0; i < s.n; ++i)
    if (p[static_cast<std::size_t>(i)] < 0) {
      while (used[static_cast<std::size_t>(j)]) ++j;
      p[static_cast<std::size_t>(i)] = j++;
    }
  return p;
}

}  // namespace

matrix::Decomposition kempe_decompose(const Support& s, const matrix::Decomposition& start,
                                      const KempeOptions& opt) {
  const int classes = static_cast<int>(start.perms.size());
  if (s.size() == 0 || classes == 0) return {};
  // A pass visits K(K - 1)/2 pairs at O(n) each.
  const double pass_work = 0.5 * classes * (classes - 1.0) * s.n;
  const int passes = static_cast<int>(
      std::min<double>(opt.max_passes, std::floor(opt.max_work / std::max(pass_work, 1.0))));
  if (passes == 0) return {};
  Colouring c(s, classes);
  initial_colours(s, start, c);
  for (int e = 0; e < s.size(); ++e)
    if (c.colour(e) < 0) return {};  // `start` does not cover D
  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (int a = 0; a < classes; ++a)
      for (int b = a + 1; b < classes; ++b) improved = c.improve_pair(a, b) || improved;
    if (!improved) break;
  }
  matrix::Decomposition dec;
  for (int k = 0; k < classes; ++k)
    if (const double w = c.class_max(k); w > 0.0) {
      dec.perms.push_back(class_permutation(s, c, k));
      dec.weights.push_back(w);
    }
  matrix::sort_by_weight(dec);
  return dec;
}

}  // namespace flux::spectra
