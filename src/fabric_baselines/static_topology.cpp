#include "fabric_baselines/static_topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "core/error.hpp"
#include "fabric/workload_fit.hpp"
#include "fabric_baselines/circuit_dispatch.hpp"
#include "fabric_baselines/traffic.hpp"

namespace flux::fabric_baselines {

namespace {

const char* kOption = "topology";

// Each port carries at most one circuit per OCS (simplex: one as sender, one as receiver).
void check_matching(const Matching& m, const fabric::Fabric& f, int sw) {
  std::vector<int> tx(static_cast<std::size_t>(f.gpus), 0), rx = tx;
  for (auto [a, b] : m) {
    ++tx[static_cast<std::size_t>(a)];
    ++(f.circuit == fabric::CircuitKind::duplex ? tx : rx)[static_cast<std::size_t>(b)];
  }
  for (int g = 0; g < f.gpus; ++g)
    if (tx[static_cast<std::size_t>(g)] > 1 || rx[static_cast<std::size_t>(g)] > 1)
      throw InputError(
          "", kOption,
          fmt::format("at most one circuit per port; gpu {} has two on OCS {}", g, sw));
}

std::pair<int, int> parse_pair(const std::string& item, const fabric::Fabric& f) {
  int a = -1, b = -1;
  char dash = 0, rest = 0;
  std::istringstream in(item);
  if (!(in >> a >> dash >> b) || dash != '-' || (in >> rest) || a < 0 || b < 0 || a >= f.gpus ||
      b >= f.gpus || a == b)
    throw InputError(
        "", kOption,
        fmt::format("pairs \"a-b\" of distinct GPUs in [0, {}], got \"{}\"", f.gpus - 1, item));
  if (f.circuit == fabric::CircuitKind::duplex && a > b) std::swap(a, b);
  return {a, b};
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

// A send whose endpoints no OCS connects can never run.
void check_coverage(const workload::Workload& w, const fabric::Fabric& f,
                    const std::vector<Matching>& topo) {
  std::vector<char> linked(static_cast<std::size_t>(f.gpus) * static_cast<std::size_t>(f.gpus), 0);
  for (const Matching& m : topo)
    for (auto [a, b] : m) {
      linked[static_cast<std::size_t>(a * f.gpus + b)] = 1;
      if (f.circuit == fabric::CircuitKind::duplex)
        linked[static_cast<std::size_t>(b * f.gpus + a)] = 1;
    }
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    const workload::Task& task = w.tasks[t];
    if (task.kind == workload::TaskKind::send &&
        !linked[static_cast<std::size_t>(task.src * f.gpus + task.dst)])
      throw InputError(
          "", kOption,
          fmt::format("a circuit for every send; {} needs gpu {} -> gpu {}, which no "
                      "OCS of the static topology connects",
                      fabric::describe_task(w, static_cast<int>(t)), task.src, task.dst));
  }
}

// The one window each OCS plays: its fixed circuits from the first set-up on.
class StaticWindows final : public WindowSource {
 public:
  StaticWindows(std::vector<Matching> topo, fabric::Time up) : topo_(std::move(topo)), up_(up) {
    used_.assign(topo_.size(), 0);
  }
  std::optional<Window> next(int sw, fabric::Time) override {
    if (static_cast<std::size_t>(sw) >= topo_.size() || used_[static_cast<std::size_t>(sw)])
      return std::nullopt;
    used_[static_cast<std::size_t>(sw)] = 1;
    return Window{up_, fabric::kNever, topo_[static_cast<std::size_t>(sw)]};
  }

 private:
  std::vector<Matching> topo_;
  fabric::Time up_;
  std::vector<char> used_;
};

}  // namespace

std::vector<Matching> parse_topology(const std::string& text, const fabric::Fabric& f) {
  std::vector<std::string> lists = split(text, '/');
  if (lists.empty() || static_cast<int>(lists.size()) > f.ocs)
    throw InputError(
        "", kOption,
        fmt::format("1 to {} circuit lists separated by '/', got \"{}\"", f.ocs, text));
  std::vector<Matching> topo;
  for (const std::string& list : lists) {
    Matching m;
    for (const std::string& item : split(list, ','))
      if (!item.empty()) m.push_back(parse_pair(item, f));
    check_matching(m, f, static_cast<int>(topo.size()));
    topo.push_back(std::move(m));
  }
  return topo;
}

std::vector<Matching> heaviest_topology(const workload::Workload& w, const fabric::Fabric& f) {
  const bool duplex = f.circuit == fabric::CircuitKind::duplex;
  Matrix d = duplex ? symmetrized(circuit_demand(w)) : circuit_demand(w);
  std::vector<std::tuple<double, int, int>> pairs;
  for (int a = 0; a < f.gpus; ++a)
    for (int b = duplex ? a + 1 : 0; b < f.gpus; ++b)
      if (a != b && d(a, b) > 0) pairs.emplace_back(-d(a, b), a, b);
  std::sort(pairs.begin(), pairs.end());
  std::vector<char> taken(pairs.size(), 0);
  std::vector<Matching> topo;
  for (int k = 0; k < f.ocs; ++k) {
    std::vector<char> tx(static_cast<std::size_t>(f.gpus), 0), rx = tx;
    Matching m;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      auto [weight, a, b] = pairs[p];
      std::vector<char>& rb = duplex ? tx : rx;
      if (taken[p] || tx[static_cast<std::size_t>(a)] || rb[static_cast<std::size_t>(b)]) continue;
      tx[static_cast<std::size_t>(a)] = rb[static_cast<std::size_t>(b)] = 1;
      taken[p] = 1;
      m.emplace_back(a, b);
    }
    topo.push_back(std::move(m));
  }
  return topo;
}

fabric::ScheduleRun schedule_static(const workload::Workload& w, const fabric::Fabric& f,
                                    const fabric::SchedulerOptions& opt) {
  std::vector<Matching> topo =
      opt.topology.empty() ? heaviest_topology(w, f) : parse_topology(opt.topology, f);
  check_coverage(w, f, topo);
  StaticWindows source(std::move(topo),
                       f.initial_config_free ? 0 : fabric::to_time(f.reconfig_delay));
  return run_dispatch(w, f, source, {.progress = opt.progress, .outputs = opt.outputs}, "static");
}

}  // namespace flux::fabric_baselines
