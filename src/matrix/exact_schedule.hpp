#pragma once
// Exact optimum of the all-stop matrix problem on small instances, by a MILP solved
// with the milp module (CBC). Used as ground truth in tests: every lower bound must stay below it
// and every valid schedule above it.
//
// Model: for every switch k and every candidate permutation p a binary y_kp (p is played on k)
// and a duration 0 <= x_kp <= M_p y_kp, M_p = largest entry p serves (a longer slot serves
// nothing more). Candidates: one permutation per maximal matching of the support of D (completed
// with idle circuits). Every permutation serves a matching of the support, which lies inside a
// maximal one, and serving more at the same cost never hurts, so nothing is lost; on sparse
// matrices this is a few hundred candidates where all n! permutations would be millions.
//   switch load   sum_p (x_kp + delta y_kp) <= T                       for every k
//   coverage      sum_k sum_p x_kp P_p[i][j] >= D[i][j]                for every non-zero (i, j)
//   one slot      sum_k sum_{p: P_p[i][j] = 1} y_kp >= 1               (implied; tightens the LP)
//   symmetry      y_kq <= sum_{r <= q} y_{k-1,r}  (switches identical: ordered by the smallest
//                 permutation they use, empty ones last)
//   minimise T.
// Playing a permutation at most once per switch is without loss of generality (merging two slots
// of one permutation saves delta), and full permutations dominate partial ones (idle circuits
// cost nothing). Size: s * (maximal matchings) binaries. Dense 4 x 4 on 3 switches takes seconds;
// sparse 8 x 8 (two or three entries per line) on 2-4 switches seconds to a minute.
#include "matrix/algorithm.hpp"

namespace flux::matrix {

enum class ExactStatus { optimal, not_proven, too_large };
const char* to_string(ExactStatus s);

struct ExactOptions {
  double time_limit_seconds = 30.0;
  int max_ports = 12;
  int max_switches = 4;
  int max_permutations = 2000;  // more maximal matchings than this: too_large
};

struct ExactResult {
  ExactStatus status = ExactStatus::too_large;
  double makespan = 0.0;    // the optimum when status == optimal (normalised time units)
  MatrixSchedule schedule;  // the optimal slots, algorithm "exact-milp", rate 1
};

[[nodiscard]] ExactResult exact_matrix_schedule(const MatrixProblem& p,
                                                const ExactOptions& opt = {});

}  // namespace flux::matrix
