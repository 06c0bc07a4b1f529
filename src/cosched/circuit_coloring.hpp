#pragma once
// A static OCS per circuit: greedy edge colouring of the workload's circuit graph (one edge per
// GPU pair that exchanges messages) with σ colours, so that circuits meeting at a GPU land on
// different OCSes where possible — a TP ring then alternates between two OCSes and every ring
// step runs in parallel. Pairs are coloured busiest first (most messages, then most bytes); each
// takes the colour least used by already coloured pairs at its two GPUs (weighted by messages).
// It is a second starting point for the local search, beside flux-greedy's per-message choices.
// Complexity O(P·(deg + σ) + M), P = GPU pairs.
#include <vector>

#include "cosched/instance.hpp"

namespace flux::cosched {

// The OCS of every message (index = message).
[[nodiscard]] std::vector<int> circuit_coloring(const CoschedInstance& inst);

}  // namespace flux::cosched
