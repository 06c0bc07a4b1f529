// Fuzz target: the makespan lower bounds on any demand matrix a CSV can hold. The first two bytes
// choose s (1-16) and delta (0 to 0.5); the rest is the CSV. Whatever the matrix, every bound must
// be finite and ordered (LB1 <= LB2 <= LB3, LB2 <= LB4), and the combined bounds their maxima.
#include <algorithm>
#include <cmath>

#include "fuzz_support.hpp"
#include "matrix/bounds.hpp"
#include "matrix/demand.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int s = 1 + data[0] % 16;
  const double delta = data[1] / 510.0;
  flux::matrix::Demand d;
  try {
    d = flux::matrix::parse_demand_csv(flux::fuzz::text_of(data + 2, size - 2), "fuzz");
  } catch (const flux::InputError&) {
    return 0;
  }
  const flux::matrix::MatrixBounds b = flux::matrix::matrix_lower_bounds(d.matrix, s, delta);
  for (const double v : {b.lb1, b.lb2, b.lb3, b.lb4})
    if (!std::isfinite(v) || v < 0) std::abort();
  if (b.lb2 < b.lb1 * (1 - 1e-12) || b.lb3 < b.lb2 * (1 - 1e-12) || b.lb4 < b.lb2) std::abort();
  if (b.bound != std::max({b.lb1, b.lb2, b.lb4}) || b.all_stop != std::max(b.bound, b.lb3))
    std::abort();
  return 0;
}
