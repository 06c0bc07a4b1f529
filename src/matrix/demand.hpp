#pragma once
// flux.demand/1 (docs/formats.md) and plain CSV demand matrices.
#include <string>

#include "core/matrix.hpp"

namespace flux::matrix {

enum class DemandUnit { bytes, normalized };

struct Demand {
  Matrix matrix;
  DemandUnit unit = DemandUnit::normalized;
};

inline constexpr int kMaxPorts = 4096;
// Largest demand entry, in any unit: 1 PB between two ports, far beyond any real iteration, and
// small enough that the LP solvers and the integer byte conversions stay exact and finite.
inline constexpr double kMaxDemandEntry = 1e15;

// Reads a `.json` (flux.demand/1) or any other extension as CSV.
Demand read_demand(const std::string& path);
Demand parse_demand_json(const std::string& text, const std::string& label);
Demand parse_demand_csv(const std::string& text, const std::string& label);
std::string demand_to_json(const Demand& d);
const char* to_string(DemandUnit u);

}  // namespace flux::matrix
