#pragma once
// Small pieces every matrix baseline shares: LPT onto the switches
// (Spectra's SCHEDULE, no splitting), playing a list serially on one switch, and filling the
// result header. Complexity: linear in the number of slots (plus K log K for sorting).
#include <string>
#include <vector>

#include "matrix/algorithm.hpp"
#include "spectra/decompose.hpp"

namespace flux {

// SCHEDULE (LPT with δ, reference/spectra.md §2.2) without EQUALIZE, then the timeline.
[[nodiscard]] MatrixResult lpt_schedule(const std::string& name, const Decomposition& dec,
                                        const MatrixProblem& p);

// Appends dec's permutations to switch `sw` back to back, each preceded by δ (all-stop), starting
// from an unconfigured switch at t = 0. Entries where `served` is zero are written as idle (-1).
// Returns the switch's end time (0 when nothing is played).
double play_serially(const Decomposition& dec, const Matrix& served, int sw, double delta,
                     std::vector<Slot>& out);

// A result with the header filled from the problem and the makespan from the slots/circuits.
[[nodiscard]] MatrixResult make_result(const std::string& name, const MatrixProblem& p,
                                       MatrixSchedule schedule, int permutations);

}  // namespace flux
