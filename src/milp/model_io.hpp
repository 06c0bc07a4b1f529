#pragma once
// A milp::Model as an LP or MPS file for an outside solver (Gurobi, HiGHS, CBC's own binary), and
// that solver's solution file read back and checked against every bound, integrality and row.
#include <string>
#include <vector>

#include "milp/model.hpp"

namespace flux::milp {

[[nodiscard]] std::string write_lp(const Model& model);
[[nodiscard]] std::string write_mps(const Model& model);

// Reads "name value" lines (Gurobi .sol, HiGHS, the CBC `solu` file with an index column first);
// '#' comments and header lines are skipped; columns not listed are 0. Throws InputError (file =
// `label`) for a name not in the model, no values at all, or values that violate the model.
[[nodiscard]] std::vector<double> read_solution(const Model& model, const std::string& text,
                                                const std::string& label);

}  // namespace flux::milp
