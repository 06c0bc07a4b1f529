#include "matrix_algorithms/registry.hpp"

#include "spectra/spectra.hpp"

namespace flux {

const std::vector<MatrixAlgorithm>& matrix_algorithms() {
  static const std::vector<MatrixAlgorithm> list = {
      {"spectra", "Spectra, improved (default)",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return spectra_improved(p); }},
      {"spectra-ref", "Spectra exactly as the reference (LP weights)",
       [](const MatrixProblem& p, const MatrixRunOptions&) { return spectra_reference(p); }},
  };
  return list;
}

const MatrixAlgorithm* find_matrix_algorithm(std::string_view name) {
  for (const auto& a : matrix_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace flux
