#pragma once
// Small pieces every matrix baseline shares: LPT onto the switches
// (Spectra's SCHEDULE, no splitting), playing a list serially on one switch, and filling the
// result header. Complexity: linear in the number of slots (plus K log K for sorting).
#include <string>
#include <vector>

#include "matrix/algorithm.hpp"
#include "matrix/decomposition.hpp"

namespace flux::matrix_baselines {

// SCHEDULE (LPT with δ) without EQUALIZE, then the timeline;
// permutations made of padding only (no entry with demand) are dropped first.
[[nodiscard]] matrix::MatrixResult lpt_schedule(const std::string& name,
                                                const matrix::Decomposition& dec,
                                                const matrix::MatrixProblem& p);

// Appends dec's permutations to switch `sw` back to back, each preceded by δ (all-stop), starting
// from an unconfigured switch at t = 0. Entries where `served` is zero are written as idle (-1).
// Returns the switch's end time (0 when nothing is played).
double play_serially(const matrix::Decomposition& dec, const Matrix& served, int sw, double delta,
                     std::vector<matrix::Slot>& out);

// Exact decompositions (BvN, Solstice) may need up to nnz(stuffed) <= nnz + 2n permutations of n
// entries each; refuses (InputError) inputs whose schedule would exceed 2^28 entries (~1 GiB)
// instead of exhausting memory. Dense n = 512 needs 2^27 and passes.
void check_schedule_size(const Matrix& d, const std::string& algorithm);

// For byte demand (p.byte_time > 0), an all-stop schedule's slots in whole-byte terms: a slot
// that serves no demanded entry or lasts no time is dropped (it would cost δ for nothing), and a
// slot shorter than one byte (a fraction of a byte left by splitting an entry across slots or
// switches) is held for one byte; the switch's later slots move by the time gained or lost, the
// gaps between them (δ or more) are kept. The makespan is recomputed. Per-port schedules and
// normalised demand are left alone. O(slots · n).
void whole_byte_slots(matrix::MatrixSchedule& s, const matrix::MatrixProblem& p);

// A result with the header filled from the problem and the makespan from the slots/circuits.
[[nodiscard]] matrix::MatrixResult make_result(const std::string& name,
                                               const matrix::MatrixProblem& p,
                                               matrix::MatrixSchedule schedule, int permutations);

}  // namespace flux::matrix_baselines
