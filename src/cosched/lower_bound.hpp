#pragma once
// A provably valid lower bound on the optimal iteration time of a co-scheduling instance (the
// Flux model of docs/models.md: atomic messages, σ OCSes, per-port reconfiguration τ, circuit
// reuse). Five families, the largest wins:
//  1. Critical path with heads r_v: no message starts before τ when the initial configuration is
//     not free (every port pays its first set-up from t = 0); r_v + p_v + q_v, q_v = tail.
//  2. Port energy: for a GPU's σ ports (duplex; simplex: its σ TX ports, and its σ RX ports) and
//     thresholds a, b, the messages S touching it with r_m ≥ a and q_m ≥ b all run inside
//     [a, C − b]. Each circuit c of S needs port time max(T_c, R_c) (the two directions of a
//     duplex circuit overlap, one direction is sequential), and all but σ of the k circuits of S
//     need a set-up of τ inside the window:  C ≥ a + b + (Σ_c max(T_c, R_c) + τ·(k − σ)⁺) / σ.
//     Maximised over the heads (a) and tails (b) of S. Raised by a case analysis: either every
//     circuit of S runs on one port (then the window holds the largest circuit, and some port
//     the ⌈m/σ⌉ smallest of the m largest circuits plus a set-up between each two), or one is
//     split over two ports, which costs one more set-up: τ·(k + 1 − σ)⁺ in the sum above.
//  3. Set-up pigeonhole: σ + 1 messages of one GPU side with pairwise different circuits put two
//     on one port, which must be re-pointed between them: C ≥ min over their pairs of
//     max(r_y, r_x + p_x + τ) + p_y + q_y (the better order of each pair). This is what catches
//     a switch from the TP ring's circuits to the DP circuit right after the last TP step.
//  4. Set-up bursts: a task waits for all its message predecessors; those at one GPU side with k
//     distinct circuits, released at or after a, end no earlier than a + (load + τ·(k − σ)⁺)/σ
//     and a + (⌈k/σ⌉ − 1)·τ + (the ⌈k/σ⌉ shortest per-circuit messages): some port carries
//     ⌈k/σ⌉ of those circuits and is re-pointed between them. This raises the heads H in a
//     forward pass (an MoE all-to-all's fan-in), and symmetrically the tails Q over each task's
//     message successors (its fan-out) in a backward pass; C ≥ H_v + p_v + Q_v, and families 2
//     and 3 are evaluated again with H and Q. The raises accumulate along the DAG.
//  5. Set-up chains (setup_chain.hpp): family 3 over a task's ancestors: σ + 1 ancestor messages
//     of one GPU side (any GPU) on pairwise different circuits (or σ and the task itself, a
//     message) put two on one port, so the task starts no earlier than the smaller pair end (the
//     later ends τ after the earlier) plus the DAG path from it to the task. It raises H in the
//     same forward pass, and Q over descendants in the backward one: the τ a pipeline hop pays
//     when the TP rings hold a GPU's ports, charged where the hop and the last ring send meet.
// Proofs are in lower_bound.cpp and setup_chain.cpp. Complexity O(V + E + Σ_g n_g · (min(n_g, A) +
// R log R)) for n_g messages at GPU g, at most A head thresholds and R neighbours per message
// (options; any subset of thresholds or sets gives a valid bound); family 4 adds O(Σ_v d_v (log d_v
// + k_v)) for d_v message neighbours of task v on k_v circuits of one side, and one more run of
// families 2 and 3; family 5 O(Σ_v d_v s σ log(d_v s σ)) time for s = its own and foreign sides
// kept per task, and memory for the lists of the pass's frontier.
#include <cstdint>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "cosched/instance.hpp"

namespace flux::cosched {

struct FluxBoundOptions {
  // Head thresholds a tried per GPU side, evenly spaced in rank (the lowest head always
  // included); 0 = every distinct head, O(n²) per GPU.
  int max_head_thresholds = 128;
  // Set-up pigeonhole: a message's possible companions are its R neighbours on each side in
  // head order at its GPU side; 0 = family 3 off.
  int pigeonhole_reach = 16;
  // Family 4 (burst heads and tails, and families 2 and 3 again on them); false = off.
  bool bursts = true;
  // Family 5 (set-up chains, raising the same H and Q); false = off.
  bool setup_chains = true;
  // Family 5: GPU sides other than a task's own whose companions it carries (the latest ones).
  int chain_foreign_sides = 8;
  // When it passes, the bound stops where it is and keeps what it has proven: the GPU sides of
  // families 2 and 3 not reached yet are left out, and families 4 and 5 are not used unless
  // both of their passes finished. Every part is valid on its own, so the bound stays valid, only
  // weaker. Family 1 always runs (one pass over the DAG).
  Deadline deadline{};
};

enum class BoundSource { critical_path, port_energy, setup_pigeonhole, burst_path, setup_chain };

struct FluxBound {
  double value = 0.0;          // seconds, ≤ every feasible schedule's iteration time
  double critical_path = 0.0;  // family 1 alone
  BoundSource source = BoundSource::critical_path;
  // Where a port family attains it (else gpu = -1):
  int gpu = -1;
  std::string side;  // "ports" (duplex), "tx" or "rx" (simplex)
  // port_energy: window [a, value − b], |S|, k and Σ_c max(T_c, R_c) in seconds;
  // setup_pigeonhole: messages = circuits = σ + 1, and their task ids.
  double window_begin = 0.0, window_end = 0.0;
  int messages = 0, circuits = 0;
  double load = 0.0;
  bool whole_circuits = false;  // port_energy raised by the whole-or-split case analysis
  // burst_path, setup_chain: the task v attaining H_v + p_v + Q_v
  std::vector<std::int64_t> task_ids;
  bool burst_times = false;  // port families: evaluated with H and Q (families 4 and 5)
  // burst_path, setup_chain: H_v − r_v and Q_v − q_v, and the family-5 raises on the path
  // attaining them (setup_chain when there are any)
  double head_raise = 0.0, tail_raise = 0.0;
  int chain_steps = 0;
  // False when FluxBoundOptions::deadline had passed on return: a family may have stopped early.
  bool complete = true;
};

// Earliest start of every task in every feasible schedule: predecessors' ends, and τ for
// messages when the initial configuration is not free.
[[nodiscard]] std::vector<double> flux_heads(const CoschedInstance& inst);

// The longest path head_v + p_v + tail_v over all tasks (family 1 with `flux_heads`).
[[nodiscard]] double critical_path_length(const CoschedInstance& inst,
                                          const std::vector<double>& head);

[[nodiscard]] FluxBound flux_lower_bound(const CoschedInstance& inst,
                                         const FluxBoundOptions& options = {});

// One line saying what attains the bound: "critical path", "port energy gpu 3 [12.1ms, 70.2ms]:
// 412 messages, 3 circuits, load 55.3ms" or "set-up pigeonhole gpu 0: tasks 7, 9, 12 use 3
// circuits on 2 ports", or "set-up bursts: path through task 9, heads +2ms, tails +1ms" (or
// "set-up chains: ..., 14 chained pigeonholes" when family 5 raised that path); the port
// families evaluated on family 4's heads and tails end with " (burst heads and tails)".
[[nodiscard]] std::string describe(const FluxBound& bound);

}  // namespace flux::cosched
