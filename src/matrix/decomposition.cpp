#include "matrix/decomposition.hpp"

#include <algorithm>
#include <numeric>

namespace flux::matrix {

void sort_by_weight(Decomposition& dec) {
  std::vector<std::size_t> order(dec.perms.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return dec.weights[a] > dec.weights[b]; });
  Decomposition sorted;
  for (std::size_t l : order) {
    sorted.perms.push_back(std::move(dec.perms[l]));
    sorted.weights.push_back(dec.weights[l]);
  }
  dec = std::move(sorted);
}

void drop_zero_weights(Decomposition& dec) {
  while (!dec.weights.empty() && dec.weights.back() <= 0.0) {
    dec.weights.pop_back();
    dec.perms.pop_back();
  }
}

}  // namespace flux::matrix
