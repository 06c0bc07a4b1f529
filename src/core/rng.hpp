#pragma once
// Seeded, portable random numbers (xoshiro256** seeded by splitmix64). The distributions are
// written out here, not taken from <random>, so the same seed gives the same numbers with every
// standard library.
#include <cstdint>
#include <utility>
#include <vector>

namespace flux {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next();
  double uniform();                      // [0, 1)
  double uniform(double lo, double hi);  // [lo, hi)
  std::uint64_t below(std::uint64_t n);  // [0, n), unbiased; n > 0
  double normal(double mean = 0.0, double stddev = 1.0);
  double gamma(double shape);  // shape > 0, scale 1
  std::vector<double> dirichlet(int k, double alpha);

  std::vector<int> permutation(int n);  // uniform random permutation of 0..n-1
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace flux
