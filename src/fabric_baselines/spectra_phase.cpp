#include "fabric_baselines/spectra_phase.hpp"

#include <deque>
#include <map>
#include <tuple>

#include "fabric_baselines/matrix_frame.hpp"
#include "fabric_baselines/traffic.hpp"

namespace flux::fabric_baselines {

namespace {

using PhaseKey = std::tuple<std::int64_t, std::string, int, int, std::string, int>;

PhaseKey phase_key(const workload::Task& t, int index) {
  if (t.collective >= 0) return {t.collective, "", -1, -1, "", -1};
  if (!t.phase.empty() || !t.group.empty() || t.layer >= 0 || t.microbatch >= 0)
    return {-1, t.phase, t.layer, t.microbatch, t.group, -1};
  return {-1, "", -1, -1, "", index};
}

class PhaseWindows final : public WindowSource {
 public:
  PhaseWindows(const workload::Workload& w, const fabric::Fabric& f, std::string algorithm)
      : w_(w),
        planner_(f, std::move(algorithm), "phase_algorithm"),
        queued_(f.ocs),
        busy_(f.ocs, 0) {
    std::map<PhaseKey, int> index;
    phase_of_.assign(w.tasks.size(), -1);
    for (std::size_t t = 0; t < w.tasks.size(); ++t) {
      if (w.tasks[t].kind != workload::TaskKind::send) continue;
      auto [it, fresh] = index.emplace(phase_key(w.tasks[t], static_cast<int>(t)),
                                       static_cast<int>(members_.size()));
      if (fresh) members_.emplace_back();
      members_[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(t));
      phase_of_[t] = it->second;
    }
    planned_.assign(members_.size(), 0);
  }

  std::optional<Window> next(int sw, fabric::Time) override {
    std::deque<Window>& q = queued_[static_cast<std::size_t>(sw)];
    if (q.empty()) return std::nullopt;
    Window w = std::move(q.front());
    q.pop_front();
    return w;
  }

  void on_send_ready(int task, fabric::Time now) override {
    const int p = phase_of_[static_cast<std::size_t>(task)];
    if (planned_[static_cast<std::size_t>(p)]) return;
    planned_[static_cast<std::size_t>(p)] = 1;
    play(circuit_demand_entries(w_, members_[static_cast<std::size_t>(p)]), now);
  }

  void on_idle(const std::vector<std::tuple<int, int, double>>& backlog,
               fabric::Time now) override {
    std::map<std::pair<int, int>, double> sum;
    for (auto [from, to, bytes] : backlog) sum[{from, to}] += std::max(bytes, 1.0);  // 0 B too
    DemandEntries d;
    for (const auto& [pair, bytes] : sum) d.emplace_back(pair.first, pair.second, bytes);
    play(d, now);
  }

 private:
  // Each OCS plays its part of the plan after what it already has queued. A demand planned
  // before is not planned again: the plan depends on the demand alone (the same collective on
  // the same GPUs recurs in every layer and micro-batch), and planning a 1,024-GPU matrix costs
  // milliseconds however few pairs it has.
  void play(const DemandEntries& demand, fabric::Time now) {
    auto plan = plans_.find(demand);
    if (plan == plans_.end()) plan = plans_.emplace(demand, planner_.plan(demand)).first;
    const Frame& frame = plan->second;
    for (std::size_t sw = 0; sw < frame.windows.size(); ++sw) {
      if (frame.windows[sw].empty()) continue;
      const fabric::Time base = std::max(now, busy_[sw]);
      for (Window w : frame.windows[sw]) {
        w.up += base;
        w.end += base;
        busy_[sw] = w.end;
        queued_[sw].push_back(std::move(w));
      }
    }
  }

  const workload::Workload& w_;
  EntryPlanner planner_;
  std::vector<std::deque<Window>> queued_;
  std::vector<fabric::Time> busy_;
  std::vector<int> phase_of_;
  std::vector<std::vector<int>> members_;
  std::vector<char> planned_;
  std::map<DemandEntries, Frame> plans_;
};

}  // namespace

fabric::ScheduleRun schedule_spectra_phase(const workload::Workload& w, const fabric::Fabric& f,
                                           const fabric::SchedulerOptions& opt) {
  PhaseWindows source(w, f, opt.phase_algorithm);
  return run_dispatch(w, f, source, {.progress = opt.progress, .outputs = opt.outputs},
                      "spectra-phase");
}

}  // namespace flux::fabric_baselines
