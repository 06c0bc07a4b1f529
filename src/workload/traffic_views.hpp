#pragma once
// Traffic views of a workload:
//  * the demand matrix in bytes (flux.demand/1, ready for `flux matrix schedule`) of the whole
//    iteration or of the sends matching a phase and/or group tag, or one per (phase, group);
//  * flows.csv in the shape SimAI's optical path uses:
//    `flow_id,collective_id,group,phase,layer,microbatch,src,dst,bytes,step,depends_on`, where
//    `step` is the send's depth inside its collective (0 = first step) and `depends_on` lists the
//    flows it directly waits for (through a reduction task, if any), separated by ';'.
// Both are sinks, so they run while a scenario streams. Memory: n^2 doubles for the demand,
// 21 bytes per task for the flows. Time: O(tasks + edges).
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "matrix/demand.hpp"
#include "workload/task_sink.hpp"

namespace flux::workload {

struct TrafficFilter {
  std::string phase;  // empty = any
  std::string group;  // empty = any
  bool matches(const Task& t) const {
    return t.kind == TaskKind::send && (phase.empty() || t.phase == phase) &&
           (group.empty() || t.group == group);
  }
};

class DemandSink final : public TaskSink {
 public:
  explicit DemandSink(TrafficFilter filter = {}) : filter_(std::move(filter)) {}
  void begin(int gpus) override { demand_ = {Matrix(gpus), matrix::DemandUnit::bytes}; }
  void add(const Task& t) override {
    if (filter_.matches(t)) demand_.matrix(t.src, t.dst) += t.bytes;
  }
  [[nodiscard]] const matrix::Demand& demand() const { return demand_; }

 private:
  TrafficFilter filter_;
  matrix::Demand demand_;
};

[[nodiscard]] matrix::Demand workload_demand(const Workload& w, const TrafficFilter& filter = {});

// One demand matrix per communication phase, keyed "<phase>-<group>" (e.g. "fwd-tp", "dp-dp"):
// the per-phase inputs of a matrix scheduler applied phase by phase.
class PhaseDemandSink final : public TaskSink {
 public:
  void begin(int gpus) override {
    gpus_ = gpus;
    demands_.clear();
  }
  void add(const Task& t) override {
    if (t.kind != TaskKind::send) return;
    auto [it, fresh] = demands_.try_emplace(t.phase.str() + "-" + t.group.str());
    if (fresh) it->second = {Matrix(gpus_), matrix::DemandUnit::bytes};
    it->second.matrix(t.src, t.dst) += t.bytes;
  }
  [[nodiscard]] const std::map<std::string, matrix::Demand>& demands() const { return demands_; }

 private:
  int gpus_ = 0;
  std::map<std::string, matrix::Demand> demands_;
};

class FlowsCsvWriter final : public TaskSink {
 public:
  explicit FlowsCsvWriter(std::ostream& out) : out_(out) {}
  void begin(int gpus) override;
  void add(const Task& t) override;

 private:
  std::ostream& out_;
  std::string line_;    // depends_on of the current flow
  std::string record_;  // the current CSV record
  // Per position: the flow a successor depends on (a send's own id, a reduction's input) or -1,
  // the number of steps of its collective done so far, its collective and kind.
  std::vector<std::int64_t> flow_;
  std::vector<int> level_;
  std::vector<std::int64_t> collective_;
  std::vector<char> is_send_;
};

}  // namespace flux::workload
