#pragma once
// Solving a milp::Model. A backend returns a status saying what is known about the model, the best
// solution found with its objective, and a proven bound on the optimum (≤ the objective when
// minimising, ≥ when maximising). Two backends:
//  * CbcBackend (cbc_backend.cpp, the only file of Flux that includes COIN-OR headers): CBC's
//    branch and bound for models with integer columns, Clp's dual simplex for pure LPs;
//  * BruteForceBackend: tries every integer assignment within the bounds of a small pure-integer
//    model; an independent reference for tests.
#include <cstdint>
#include <string>
#include <vector>

#include "milp/model.hpp"

namespace flux::milp {

// Append-only: the names appear in output files.
enum class Status {
  optimal,      // solution proven optimal (within Limits::gap)
  feasible,     // a solution, not proven optimal when a limit stopped the search
  infeasible,   // proven to have no solution
  no_solution,  // a limit stopped the search before any solution was found
  not_solved,   // never handed to a backend
  unbounded,    // the objective improves without limit
};
[[nodiscard]] const char* to_string(Status status);

struct Limits {
  double time_limit = 60.0;  // seconds, > 0
  bool cpu_time = false;     // time_limit counts process CPU time instead of wall time
  int threads = 1;
  double gap = 1e-4;            // relative gap at which the search stops
  double absolute_gap = 1e-12;  // absolute gap at which the search stops
  // Branch-and-bound nodes per solve (0 = no limit): with one thread, a budget that ends the
  // search at the same point on every machine, unlike the time limit.
  std::int64_t node_limit = 0;
  // Largest distance from an integer that still counts as integral (0 = the backend's default):
  // tighter keeps a big-M model from buying service with a tiny fractional binary.
  double integer_tolerance = 0.0;
  // CBC: add the standard cut generators and rounding / feasibility-pump heuristics. Without
  // them the search is plain branch and bound, which is enough on small exact models.
  bool cuts = true;
  bool log = false;  // solver log on stderr
};

struct Result {
  std::string backend;
  Status status = Status::not_solved;
  std::vector<double> values;  // empty without a solution
  double objective = 0.0, bound = 0.0, gap = 0.0, seconds = 0.0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  // `warm_start` (may be empty) is used only when it is feasible, and only by branch and bound
  // (CBC; Clp's pure LPs and the brute force ignore it).
  [[nodiscard]] virtual Result solve(const Model& model, const Limits& limits,
                                     const std::vector<double>& warm_start = {}) const = 0;
};

class CbcBackend final : public Backend {
 public:
  [[nodiscard]] std::string name() const override;
  [[nodiscard]] Result solve(const Model& model, const Limits& limits,
                             const std::vector<double>& warm_start = {}) const override;
};

// Throws std::invalid_argument for a continuous column, an infinite bound or more than
// `max_assignments` assignments; ignores time and node limits (it always finishes).
class BruteForceBackend final : public Backend {
 public:
  explicit BruteForceBackend(std::int64_t max_assignments = 1'000'000)
      : max_assignments_(max_assignments) {}
  [[nodiscard]] std::string name() const override { return "brute-force"; }
  [[nodiscard]] Result solve(const Model& model, const Limits& limits,
                             const std::vector<double>& warm_start = {}) const override;

 private:
  std::int64_t max_assignments_;
};

// The version of the CBC library this binary was built against (its CbcConfig.h).
[[nodiscard]] std::string cbc_version();

}  // namespace flux::milp
