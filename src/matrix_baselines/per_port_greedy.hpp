#pragma once
// Not-all-stop ("partial reconfiguration") greedy of the reference code's `bff`
// (Sunflow-style), written as a per-port schedule (the `circuits` form of flux.matrix-schedule/1).
//
// One switch, one sub-matrix M: every non-zero (i, j) gets one circuit i -> j for its whole
// remaining entry. Only the two ports of a new circuit go dark for δ (each port's first circuit
// starts at >= δ, and a port may start a different circuit δ after its previous one ended).
// Event-driven: at t = δ, and whenever ports become ready again, the ready inputs and outputs
// with demand between them are paired by a matching with the most circuits (heaviest among
// those: an assignment over the ready ports). Not a greedy largest-first pairing: that one is only
// maximal, strands ports on an all-to-all and then needs more rounds than the all-stop schedule.
// The loop ends after at most nnz circuits. Time O(n^3 + events · F^3), F = ready ports at an
// event.
//
// `per-port` runs it on each switch's share of Spectra's schedule (composed with Spectra in
// matrix_schedulers/compositions.hpp); `baseline-per-port` on each LESS part of the baseline.
// Both return the all-stop schedule they start from (written as
// per-port circuits) when the greedy comes out longer, so they are never worse than it.
#include <string>

#include "matrix/algorithm.hpp"
#include "matrix_baselines/part_decomposer.hpp"

namespace flux::matrix_baselines {

// Appends the circuits serving `m` on switch `sw` to `out`; returns the switch's last end.
double per_port_greedy(const Matrix& m, int sw, double delta,
                       std::vector<matrix::PortCircuit>& out);

// Each switch's served amounts in an all-stop schedule, restricted to D's non-zeros and scaled
// so the switches together serve each entry exactly once (filler circuits and over-service of
// the all-stop plan are dropped: a per-port schedule does not need them).
[[nodiscard]] std::vector<Matrix> per_switch_load(const Matrix& d,
                                                  const matrix::MatrixSchedule& plan);

// The greedy on each switch's load, or the all-stop `start` the loads came from when that is
// shorter: a per-port schedule is never worse than the all-stop one it starts from.
[[nodiscard]] matrix::MatrixResult per_port_result(const std::string& name,
                                                   const matrix::MatrixProblem& p,
                                                   const matrix::MatrixResult& start,
                                                   const std::vector<Matrix>& loads);

[[nodiscard]] matrix::MatrixResult per_port_baseline(const matrix::MatrixProblem& p,
                                                     const matrix::MatrixRunOptions& opt,
                                                     const PartDecomposer& decomposer);

}  // namespace flux::matrix_baselines
