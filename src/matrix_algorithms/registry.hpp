#pragma once
// Every matrix scheduler by name: the CLI, the bench and the tests go through this list.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/algorithm.hpp"

namespace flux {

struct MatrixAlgorithm {
  std::string name;
  std::string description;
  std::function<MatrixResult(const MatrixProblem&, const MatrixRunOptions&)> run;
};

const std::vector<MatrixAlgorithm>& matrix_algorithms();
const MatrixAlgorithm* find_matrix_algorithm(std::string_view name);  // nullptr if unknown

}  // namespace flux
