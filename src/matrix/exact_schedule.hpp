#pragma once
// Exact optimum of the all-stop matrix problem (DESIGN §1.1) on tiny instances, by a MILP solved
// with COIN-OR CBC. Used as ground truth in tests: every lower bound must stay below it and every
// valid schedule above it.
//
// Model: for every switch k and every permutation p of the n ports a binary y_kp (p is played on
// k) and a duration 0 <= x_kp <= M y_kp, M = largest entry (a longer slot serves nothing more).
//   switch load   sum_p (x_kp + delta y_kp) <= T                       for every k
//   coverage      sum_k sum_p x_kp P_p[i][j] >= D[i][j]                for every non-zero (i, j)
//   symmetry      load_k >= load_{k+1}                                 (the switches are identical)
//   minimise T.
// Playing a permutation at most once per switch is without loss of generality (merging two slots
// of one permutation saves delta), and full permutations dominate partial ones (idle circuits
// cost nothing). Size: s * n! binaries — meant for n <= 4 (24 permutations), s <= 3.
#include "matrix/algorithm.hpp"

namespace flux {

enum class ExactStatus { optimal, not_proven, too_large };
const char* to_string(ExactStatus s);

struct ExactOptions {
  double time_limit_seconds = 30.0;
  int max_ports = 5;  // 5! = 120 permutations per switch
  int max_switches = 4;
};

struct ExactResult {
  ExactStatus status = ExactStatus::too_large;
  double makespan = 0.0;    // the optimum when status == optimal (normalised time units)
  MatrixSchedule schedule;  // the optimal slots, algorithm "exact-milp", rate 1
};

[[nodiscard]] ExactResult exact_matrix_schedule(const MatrixProblem& p,
                                                const ExactOptions& opt = {});

}  // namespace flux
