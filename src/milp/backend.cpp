#include "milp/backend.hpp"

namespace flux::milp {

const char* to_string(Status status) {
  switch (status) {
    case Status::optimal:
      return "optimal";
    case Status::feasible:
      return "feasible";
    case Status::infeasible:
      return "infeasible";
    case Status::no_solution:
      return "no_solution";
    case Status::not_solved:
      return "not_solved";
    case Status::unbounded:
      return "unbounded";
  }
  return "unknown";
}

}  // namespace flux::milp
