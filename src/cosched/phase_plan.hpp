#pragma once
// phase-plan ("Spectra inside Flux"): a circuit plan per communication phase, realised by the list
// scheduler (placement.hpp). It is a first-incumbent candidate of `flux` beside flux-greedy and
// slack-gap-fill, aimed at workloads whose phases are many-to-many (MoE all-to-all), where
// choosing each message's OCS by its earliest start tears circuits down and sets them up again
// message by message.
//  1. Phases: the sends of one collective (the `collective` tag), else one send each.
//  2. Per phase, its circuits are split into rounds (configurations) with a ready-time estimate per
//     message. Simplex circuits: Spectra's DECOMPOSE of the phase's demand matrix
//     (spectra/decompose.hpp), each circuit in the first permutation that covers it — a
//     permutation is one configuration of TX and RX ports. Duplex circuits (weight: the busier
//     direction, one circuit carries both): a port holds one partner, so permutations (cycles)
//     do not fit; rounds are matchings peeled greedily, circuits ready first, then those at the
//     GPUs with the most remaining circuits.
//  3. Phases in order of their release (earliest ready message), their rounds in order, each
//     round goes to the OCS where it would finish first by a running per-port account (busy
//     until, current partner: a new partner costs τ, a held circuit nothing) — load-aware, and it
//     keeps circuits that recur on the OCS that already holds them.
//  4. Optionally (`dedicate`), circuits that recur most — each GPU's busiest partner, when that
//     choice is mutual (TP pairs) — are pinned to the last OCS, and no other circuit uses those
//     ports there: they are set up once and never torn down.
//  5. Start order: a linear extension of the DAG that takes ready messages by (their round's ready
//     estimate, round) — per round, not per phase, so a phase whose GPUs become ready at different
//     times (skewed MoE experts) is not held back as a whole by its last GPU. ListScheduler turns
//     order and OCSes into the semi-active schedule, so the result is feasible by construction. The
//     ready times start as the τ = 0 earliest starts; each further pass re-plans from the previous
//     pass's schedule, and the best pass is kept.
// `flux` tries it by itself only on many-to-many collectives (below), with and without late
// messages split off (split_late, with budget_passes re-plans); on the 4-layer Mixtral case the
// split plan is then the best first incumbent from 10 µs at 2 OCSes and at 4 (docs/results/flux.md
// §5). Deterministic.
// Cost per pass: O(Σ rounds · circuits) per phase (phases are small) or one DECOMPOSE per simplex
// phase, O(M log M) for the order, one list-scheduling pass.
#include <vector>

#include "cosched/instance.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {

struct PhasePlanOptions {
  bool dedicate = false;  // pin mutual busiest-partner circuits to the last OCS
  int passes = 3;         // re-plans from the previous pass's ready times
  // ≥ 0: a circuit's messages ready more than split_late·τ after its first one (the return
  // direction of a combine from a slower expert) form a second unit in a later round, instead of
  // holding the circuit idle until they are ready. Negative: one unit per circuit.
  double split_late = -1.0;
};

// True when some GPU has more distinct partners within one collective than it has ports (σ) and
// more than a ring's two: an all-to-all (MoE dispatch/combine) that re-points ports during the
// collective, which is what the plan's rounds organise. Ring and pipeline collectives are not.
[[nodiscard]] bool many_to_many(const CoschedInstance& inst);

// Passes for `PhasePlanOptions::passes` within a fixed budget of list-scheduled tasks (3·10⁵, at
// least 3, at most 40): 40 on the 4-layer Mixtral case (7,344 tasks), 5 on the 32-layer one
// (53,488). The re-plans do not converge — each pass's ready times reshape the next pass's rounds
// and OCS choices, and the schedules spread widely (4-layer Mixtral, split plan, 2 OCS, τ = 1 ms:
// 422–649 ms over 40 passes) — so the best of more passes is markedly better there (508 ms after
// 4 passes, 422 ms after 40). The budget keeps the cost at ≈ 0.15 s CPU on the small case and
// near its old cost on the large one.
[[nodiscard]] int budget_passes(const CoschedInstance& inst);

[[nodiscard]] std::vector<Placement> phase_plan(const CoschedInstance& inst,
                                                const PhasePlanOptions& options = {});

}  // namespace flux::cosched
