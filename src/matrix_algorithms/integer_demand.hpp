#pragma once
// Integer view of a demand matrix, for decompositions that must be exact (BvN, Solstice).
//
// Entries are rounded *up* to multiples of a quantum q = L / 2^bits (L = largest line sum), so a
// decomposition that rebuilds the integer matrix exactly covers D and over-serves each entry by
// less than q (relative error 2^-bits of the busiest port's load). Integer arithmetic removes the
// floating-point residue that makes textbook BvN codes lose their perfect matching.
//
// QuickStuff (Solstice, Liu et al., CoNEXT'15) raises every row and column sum to the largest
// line sum, which makes the matrix a multiple of a doubly stochastic one (Birkhoff applies).
// Complexity: quantize O(n^2); stuff O(n^2).
#include <cstdint>
#include <vector>

#include "core/matrix.hpp"
#include "core/rng.hpp"

namespace flux {

struct IntegerDemand {
  int n = 0;
  double quantum = 0.0;         // time per integer unit; 0 for the all-zero matrix
  std::vector<std::int64_t> a;  // row-major, >= 0

  std::int64_t& at(int i, int j) { return a[index(i, j)]; }
  std::int64_t at(int i, int j) const { return a[index(i, j)]; }
  [[nodiscard]] std::vector<std::int64_t> row_sums() const;
  [[nodiscard]] std::vector<std::int64_t> col_sums() const;

 private:
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j);
  }
};

inline constexpr int kQuantumBits = 40;

// Entries of `d` must be finite and >= 0.
[[nodiscard]] IntegerDemand quantize_up(const Matrix& d, int bits = kQuantumBits);

struct StuffOptions {
  // Order of the padding pass over the existing non-zeros: row-major when null, shuffled with
  // this generator otherwise (Solstice pads in random order).
  Rng* rng = nullptr;
};

// Pads existing non-zeros first (keeps the support, so the decomposition stays short), then
// repeatedly pairs the row and the column with the most slack. Afterwards every line sums to the
// largest line sum of the input.
void quick_stuff(IntegerDemand& m, const StuffOptions& opt = {});

// Common line sum after stuffing (row 0's sum; 0 for an empty matrix).
[[nodiscard]] std::int64_t line_sum(const IntegerDemand& m);

// Subtracts w * P from m, w = the smallest entry of m on perm (a full permutation); returns w.
std::int64_t peel_permutation(IntegerDemand& m, const std::vector<int>& perm);

}  // namespace flux
