#include "fabric_baselines/matrix_frame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "fabric_baselines/traffic.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::fabric_baselines {

namespace {

using Perm = std::vector<int>;

// Colours the edges i — perm[i] (demanded ones only) so that each colour is a matching.
std::vector<Matching> duplex_matchings(const Perm& perm, const Matrix& demand) {
  const int n = static_cast<int>(perm.size());
  auto edge = [&](int i) {
    int j = perm[static_cast<std::size_t>(i)];
    return j >= 0 && j != i && demand(i, j) > 0;
  };
  std::vector<int> pred(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i)
    if (edge(i)) pred[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
  std::vector<Matching> colours(3);
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  auto walk = [&](int start) {
    int colour = 0, i = start;
    while (!seen[static_cast<std::size_t>(i)] && edge(i)) {
      seen[static_cast<std::size_t>(i)] = 1;
      int j = perm[static_cast<std::size_t>(i)];
      if (seen[static_cast<std::size_t>(j)] && perm[static_cast<std::size_t>(j)] == i) break;
      bool closes_odd = j == start && colour == 0 && i != start;
      colours[static_cast<std::size_t>(closes_odd ? 2 : colour)].emplace_back(std::min(i, j),
                                                                              std::max(i, j));
      colour ^= 1;
      i = j;
    }
  };
  for (int i = 0; i < n; ++i)  // paths first (from their heads), then cycles
    if (pred[static_cast<std::size_t>(i)] < 0) walk(i);
  for (int i = 0; i < n; ++i) walk(i);
  for (Matching& m : colours) {
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
  }
  std::erase_if(colours, [](const Matching& m) { return m.empty(); });
  return colours;
}

Matching simplex_matching(const Perm& perm, const Matrix& demand) {
  Matching m;
  for (int i = 0; i < static_cast<int>(perm.size()); ++i) {
    int j = perm[static_cast<std::size_t>(i)];
    if (j >= 0 && j != i && demand(i, j) > 0) m.emplace_back(i, j);
  }
  return m;
}

}  // namespace

Frame frame_from_schedule(const matrix::MatrixSchedule& s, const Matrix& demand,
                          const fabric::Fabric& f) {
  std::vector<matrix::Slot> slots = s.slots;
  std::stable_sort(slots.begin(), slots.end(),
                   [](const matrix::Slot& a, const matrix::Slot& b) { return a.start < b.start; });
  const fabric::Time tau = fabric::to_time(f.reconfig_delay);
  Frame frame;
  frame.windows.resize(static_cast<std::size_t>(f.ocs));
  std::vector<fabric::Time> cursor(static_cast<std::size_t>(f.ocs), 0);
  for (const matrix::Slot& slot : slots) {
    // Rounded up, plus α: the matrix model knows no per-message latency, and a window one
    // picosecond short would leave a sliver of its demand behind.
    const fabric::Time hold =
        static_cast<fabric::Time>(std::ceil((slot.end - slot.start) * fabric::kPsPerSecond)) +
        fabric::to_time(f.latency) + 1;
    std::vector<Matching> parts;
    if (f.circuit == fabric::CircuitKind::duplex) {
      parts = duplex_matchings(slot.perm, demand);
    } else {
      parts.push_back(simplex_matching(slot.perm, demand));
    }
    fabric::Time& c = cursor[static_cast<std::size_t>(slot.sw)];
    for (Matching& m : parts) {
      if (m.empty() || hold <= 0) continue;
      frame.windows[static_cast<std::size_t>(slot.sw)].push_back({c + tau, c + tau + hold, m});
      c += tau + hold;
      frame.length = std::max(frame.length, c);
    }
  }
  return frame;
}

Frame stretch_frame(const Frame& frame, fabric::Time length, const fabric::Fabric& f) {
  const fabric::Time tau = fabric::to_time(f.reconfig_delay);
  Frame out;
  out.length = length;
  for (const std::vector<Window>& ws : frame.windows) {
    fabric::Time hold = 0;
    for (const Window& w : ws) hold += w.end - w.up;
    const fabric::Time dark = tau * static_cast<fabric::Time>(ws.size());
    if (!ws.empty() && length <= dark)
      throw InputError("", "frame",
                       fmt::format("a frame longer than the {} reconfigurations of one OCS ({} s)",
                                   ws.size(), fabric::to_seconds(dark)));
    const double scale = ws.empty() ? 1.0 : static_cast<double>(length - dark) / hold;
    std::vector<Window> scaled;
    fabric::Time c = 0;
    const fabric::LinkTiming lt(f);
    for (const Window& w : ws) {
      fabric::Time d = static_cast<fabric::Time>(static_cast<double>(w.end - w.up) * scale);
      if (lt.capacity(d) < 1.0)  // a window that carries nothing would never let a message finish
        throw InputError("", "frame",
                         fmt::format("a frame long enough for every circuit to carry data after α "
                                     "(one lasts {} s)",
                                     fabric::to_seconds(d)));
      scaled.push_back({c + tau, c + tau + d, w.circuits});
      c += tau + d;
    }
    out.windows.push_back(std::move(scaled));
  }
  return out;
}

namespace {

// Plans the circuits' demand in seconds at line rate (already symmetrised on a duplex fabric).
// Its positive entries are the pairs worth a circuit; `positions`, where known, lists them.
Frame plan_served(Matrix time, const fabric::Fabric& f, const std::string& algorithm,
                  const std::string& option,
                  std::optional<std::vector<std::pair<int, int>>> positions = std::nullopt) {
  const matrix_schedulers::MatrixAlgorithm* a = matrix_schedulers::find_matrix_algorithm(algorithm);
  if (a == nullptr)
    throw InputError("", option, fmt::format("a matrix scheduler name, got \"{}\"", algorithm));
  matrix::MatrixProblem p{std::move(time), f.ocs, f.reconfig_delay, 1.0 / f.link_rate,
                          std::move(positions)};
  matrix::MatrixResult r = a->run(p, {});
  return frame_from_schedule(r.schedule, p.time, f);
}

}  // namespace

Frame plan_frame(const Matrix& demand, const fabric::Fabric& f, const std::string& algorithm,
                 const std::string& option) {
  const Matrix served = f.circuit == fabric::CircuitKind::duplex ? symmetrized(demand) : demand;
  return plan_served(served.scaled(1.0 / f.link_rate), f, algorithm, option);
}

EntryPlanner::EntryPlanner(const fabric::Fabric& f, std::string algorithm, std::string option)
    : f_(f),
      algorithm_(std::move(algorithm)),
      option_(std::move(option)),
      matrix_(static_cast<std::size_t>(f.gpus) * static_cast<std::size_t>(f.gpus), 0.0) {}

Frame EntryPlanner::plan(const DemandEntries& demand) {
  const bool duplex = f_.circuit == fabric::CircuitKind::duplex;
  // Scaled entry by entry rather than as a matrix: the same doubles (x · (1 / rate), and the
  // symmetric maximum commutes with a positive factor).
  DemandEntries time = demand;
  for (auto& [from, to, bytes] : time) bytes *= 1.0 / f_.link_rate;
  write_demand(matrix_, f_.gpus, time, duplex);
  const std::vector<std::pair<int, int>> places = demand_places(time, duplex);
  const auto clear = [&] {
    for (const auto& [i, j] : places)
      matrix_[static_cast<std::size_t>(i) * static_cast<std::size_t>(f_.gpus) +
              static_cast<std::size_t>(j)] = 0.0;
  };
  try {
    Frame frame =
        plan_served(Matrix::borrow(matrix_.data(), f_.gpus), f_, algorithm_, option_, places);
    clear();
    return frame;
  } catch (...) {  // an unknown algorithm or an invalid entry: zero again for the next plan
    clear();
    throw;
  }
}

}  // namespace flux::fabric_baselines
