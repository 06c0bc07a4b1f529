#include "workload/traffic_views.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/csv.hpp"

namespace flux::workload {

matrix::Demand workload_demand(const Workload& w, const TrafficFilter& filter) {
  DemandSink sink(filter);
  sink.begin(w.gpus);
  for (const Task& t : w.tasks) sink.add(t);  // a sum: the order does not matter
  sink.end();
  return sink.demand();
}

void FlowsCsvWriter::begin(int) {
  flow_.clear();
  level_.clear();
  collective_.clear();
  is_send_.clear();
  out_ << report::csv_record("flow_id", "collective_id", "group", "phase", "layer", "microbatch",
                             "src", "dst", "bytes", "step", "depends_on");
}

void FlowsCsvWriter::add(const Task& t) {
  // A reduction task stands for the flow it reduced, so "step k+1 waits for step k" shows up as
  // a flow dependency even though a compute task sits between the two sends.
  const bool send = t.kind == TaskKind::send;
  std::int64_t reduced = -1;
  int level = 0;
  line_.clear();
  for (int p : t.after) {
    const auto u = static_cast<std::size_t>(p);
    const bool same = t.collective >= 0 && collective_[u] == t.collective;
    if (same) level = std::max(level, level_[u]);
    if (send && flow_[u] >= 0) line_ += fmt::format("{}{}", line_.empty() ? "" : ";", flow_[u]);
    if (!send && same && is_send_[u]) reduced = flow_[u];
  }
  if (send) {
    record_.clear();
    report::append_csv_record(record_, t.id, t.collective, t.group.str(), t.phase.str(), t.layer,
                              t.microbatch, t.src, t.dst, t.bytes, level, line_);
    out_ << record_;
    ++level;
  }
  flow_.push_back(send ? t.id : reduced);
  level_.push_back(level);
  collective_.push_back(t.collective);
  is_send_.push_back(send);
}

}  // namespace flux::workload
