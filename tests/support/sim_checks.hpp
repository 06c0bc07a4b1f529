#pragma once
// A simulated run checked against what the workload alone implies (simulate() has already passed
// its own checker, so `ok` says nothing here): every task ran after it was ready, every send's
// bytes reached its destination, the iteration ends with the last task, and no GPU moved its
// bytes faster than its σ ports allow. Times compare within the replay's rounding tolerance (a
// timetable is given in seconds and runs in picoseconds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/replay.hpp"
#include "fabric/schedule_check.hpp"
#include "fabric/sim_time.hpp"
#include "workload/workload.hpp"

namespace flux::testing {

inline void expect_complete_run(const workload::Workload& w, const fabric::Fabric& f,
                                const fabric::SimResult& r) {
  ASSERT_EQ(r.trace.finish.size(), w.tasks.size());
  const fabric::Time tol = time_tolerance(fabric::to_time(r.metrics.iteration_time), f);
  fabric::Time last = 0;
  double delivered = 0.0;
  std::vector<double> out(static_cast<std::size_t>(w.gpus)), in(out);
  for (std::size_t t = 0; t < w.tasks.size(); ++t) {
    const workload::Task& task = w.tasks[t];
    EXPECT_GE(r.trace.ready[t], 0) << task.name;
    EXPECT_GE(r.trace.finish[t], r.trace.ready[t]) << task.name;
    last = std::max(last, r.trace.finish[t]);
    if (task.kind != workload::TaskKind::send) continue;
    double arrived = 0.0;
    for (const fabric::Hop& h : r.trace.hops[t]) {
      EXPECT_GE(h.start + tol, r.trace.ready[t]) << task.name;
      if (h.to == task.dst) arrived += h.bytes;
    }
    EXPECT_NEAR(arrived, task.bytes, 1e-6 * (1 + task.bytes)) << task.name;
    delivered += task.bytes;
    out[static_cast<std::size_t>(task.src)] += task.bytes;
    in[static_cast<std::size_t>(task.dst)] += task.bytes;
  }
  EXPECT_NEAR(r.metrics.bytes_delivered, delivered, 1e-6 * (1 + delivered));
  EXPECT_DOUBLE_EQ(r.metrics.iteration_time, fabric::to_seconds(last));
  const double busiest =
      std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
  EXPECT_GE(r.metrics.iteration_time, busiest / (f.ocs * f.link_rate) * (1 - 1e-9));
}

}  // namespace flux::testing
