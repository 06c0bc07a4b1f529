#pragma once
// Binary search that starts from a guess. Where successive searches of a large sorted array land
// close to one another (plans that move forward in time), galloping out from the last answer
// touches a few nearby cache lines instead of the log n scattered ones of a search from the
// middle. The answer is the same as std::partition_point's.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace flux {

// The first index i of `v` for which before(v[i]) is false, given that `before` holds for a
// prefix of `v` only; `hint` is any index (a guess of the answer, clamped to the size).
template <typename T, typename Before>
[[nodiscard]] std::size_t partition_point_near(const std::vector<T>& v, std::size_t hint,
                                               Before&& before) {
  const std::size_t n = v.size();
  std::size_t lo = 0, hi = n;  // the answer is in [lo, hi]
  if (hint < n && before(v[hint])) {
    lo = hint + 1;  // gallop right: every index below lo is before
    for (std::size_t step = 1; lo + step - 1 < n; step *= 2) {
      const std::size_t probe = lo + step - 1;
      if (!before(v[probe])) {
        hi = probe;
        break;
      }
      lo = probe + 1;
    }
  } else {
    hi = std::min(hint, n);  // gallop left: v[hi] is not before (or hi = n)
    for (std::size_t step = 1; step <= hi; step *= 2) {
      const std::size_t probe = hi - step;
      if (before(v[probe])) {
        lo = probe + 1;
        break;
      }
      hi = probe;
    }
  }
  const auto first = v.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto last = v.begin() + static_cast<std::ptrdiff_t>(hi);
  return static_cast<std::size_t>(std::partition_point(first, last, before) - v.begin());
}

}  // namespace flux
