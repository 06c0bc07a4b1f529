#pragma once
// SCHEDULE (LPT with δ), EQUALIZE (split the largest piece of the most loaded switch) and the
// timeline of the Spectra paper. A plan lists, per switch, the pieces it plays;
// each piece is (permutation index into the decomposition, duration).
#include <vector>

#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"
#include "matrix/schedule.hpp"

namespace flux::matrix {

struct Piece {
  int perm = 0;  // index into Decomposition::perms
  double duration = 0.0;
};

struct SwitchPlan {
  std::vector<std::vector<Piece>> pieces;  // [switch] -> pieces
  std::vector<double> load;                // [switch] -> sum (delta + duration)
  int splits = 0;                          // pieces created by EQUALIZE
};

// LPT: weights must be sorted descending; ties go to the smallest switch index.
[[nodiscard]] SwitchPlan lpt_assign(const std::vector<double>& weights, int switches, double delta);

// The reference EQUALIZE loop, exact stop rules and tie-breaks of the authors' code, with a safety
// cap of 8·s·(K+1) splits (reached only when δ = 0). O(s + pieces) per split.
void equalize_reference(SwitchPlan& plan, double delta);

// Timeline, as the authors' code lays it out: per switch, pieces in descending duration (ties:
// larger permutation id first), each preceded by delta. Fills slots and makespan.
void plan_to_slots(const SwitchPlan& plan, const Decomposition& dec, double delta,
                   MatrixSchedule& out);

// The makespan plan_to_slots would report (bit for bit), without building the slots.
[[nodiscard]] double plan_makespan(const SwitchPlan& plan, double delta);

// SCHEDULE + EQUALIZE + timeline on a given decomposition (shared by the ablations).
[[nodiscard]] MatrixResult schedule_decomposition(const Decomposition& dec, const MatrixProblem& p,
                                                  bool equalize);

// The timeline of `plan` on `dec` as a result (n, s, δ, slots, makespan, K, splits).
[[nodiscard]] MatrixResult plan_result(const SwitchPlan& plan, const Decomposition& dec,
                                       const MatrixProblem& p);

}  // namespace flux::matrix
