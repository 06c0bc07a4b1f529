#pragma once
// Exact optimum of the all-stop matrix problem (DESIGN §1.1) on tiny instances, by a MILP solved
// with COIN-OR CBC. Used as ground truth in tests: every lower bound must stay below it and every
// valid schedule above it.
//
// Model: for every switch k and every permutation p of the n ports a binary y_kp (p is played on
// k) and a duration 0 <= x_kp <= M_p y_kp, M_p = largest entry p serves (a longer slot serves
// nothing more). Permutations whose served entries are a subset of another's are dropped.
//   switch load   sum_p (x_kp + delta y_kp) <= T                       for every k
//   coverage      sum_k sum_p x_kp P_p[i][j] >= D[i][j]                for every non-zero (i, j)
//   one slot      sum_k sum_{p: P_p[i][j] = 1} y_kp >= 1               (implied; tightens the LP)
//   symmetry      y_kq <= sum_{r <= q} y_{k-1,r}  (switches identical: ordered by the smallest
//                 permutation they use, empty ones last)
//   minimise T.
// Playing a permutation at most once per switch is without loss of generality (merging two slots
// of one permutation saves delta), and full permutations dominate partial ones (idle circuits
// cost nothing). Size: up to s * n! binaries — meant for n <= 4 (24 permutations), s <= 3; a
// dense 4 x 4 matrix on 3 switches takes seconds, sparse ones milliseconds.
#include "matrix/algorithm.hpp"

namespace flux {

enum class ExactStatus { optimal, not_proven, too_large };
const char* to_string(ExactStatus s);

struct ExactOptions {
  double time_limit_seconds = 30.0;
  int max_ports = 5;  // 5! = 120 permutations per switch; never more than 8
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
