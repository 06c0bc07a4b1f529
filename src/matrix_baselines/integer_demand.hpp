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

namespace flux::matrix_baselines {

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

// The demand counted in `unit`s (one byte's time at line rate) when unit > 0, else quantize_up.
// A byte demand is a whole number of bytes, so each entry is rounded to the nearest unit when it
// is within floating-point noise of it (bytes / rate * rate) and up otherwise: the integer matrix
// is the byte matrix itself, and every slice of a decomposition lasts a whole number of bytes.
// With the L / 2^40 quantum instead, each entry picks up a different sub-byte rounding residue,
// stuffing evens the line sums out with residue-sized entries, and peeling those costs a
// reconfiguration for a slot far shorter than one byte.
[[nodiscard]] IntegerDemand quantize_demand(const Matrix& d, double unit);

// x (an amount in units) as a whole number of units, as quantize_demand counts an entry.
[[nodiscard]] std::int64_t whole_units(double x);

// Splits of D (parts summing to D entrywise: LESS parts, per-switch shares) re-apportioned in
// whole `unit`s when unit > 0: each entry's pieces are floored and the units left over go to the
// largest remainders, so the pieces are whole bytes that add up to the entry's byte count and no
// switch is handed a fraction of a byte to serve. Nothing changes when unit is 0.
void apportion_whole_units(std::vector<Matrix>& parts, const Matrix& d, double unit);

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

}  // namespace flux::matrix_baselines
