// The cluster-scale example (16-layer GPT-3 175B) cut to 64 GPUs, under every baseline scheduler
// that runs on it: iteration time, reconfigurations, hops and peak NIC buffer pinned to the values
// the simulator gave before its scale work, so that no speed-up changes a result. The 1,024-GPU
// run itself takes seconds to minutes per scheduler (docs/results/simulator.md), too long for a
// unit test; the 64-GPU cut has the same collectives (TP8 rings, PP8 hops, the DP all-reduces
// become DP1) at a tenth of a second each.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "experiments/paper_setup.hpp"
#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/sim_checks.hpp"

namespace flux::experiments {
namespace {

struct Pin {
  const char* scheduler;
  double iteration_time;  // s
  std::int64_t reconfigurations;
  std::int64_t hops;
  double peak_nic_buffer;  // B
};

class ScaledGpt3 : public ::testing::TestWithParam<Pin> {};

TEST_P(ScaledGpt3, SameResultsAsBeforeTheScaleWork) {
  static const workload::Workload w = gpt3_example_workload(64);
  const fabric::Fabric f = testing::make_fabric(w.gpus, 2, 1e-5, {.rate = testing::kLinkRate});
  const Pin& pin = GetParam();
  const fabric::SimResult r = schedulers::simulate(w, f, pin.scheduler);
  testing::expect_complete_run(w, f, r);
  EXPECT_NEAR(r.metrics.iteration_time, pin.iteration_time, 1e-12);
  EXPECT_EQ(r.metrics.reconfigurations, pin.reconfigurations);
  EXPECT_EQ(r.metrics.hops, pin.hops);
  EXPECT_NEAR(r.metrics.peak_nic_buffer, pin.peak_nic_buffer, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Example64Gpus, ScaledGpt3,
                         ::testing::Values(
                             // flux.summary/1 rounds times to the ps and bytes to 0.1 B.
                             // ideal: 18,744 hops while a flow was cut into a piece at every
                             // event, 16,896 since a piece lasts while its rate does.
                             Pin{"ideal", 0.424318294823, 0, 16896, 200000.0},
                             Pin{"bvn", 0.668913479497, 12264, 15076, 160680960.0},
                             Pin{"spectra-phase", 0.472719888448, 1392, 16244, 160680960.0},
                             Pin{"flux-greedy", 0.478042994778, 11001, 14928, 200000.0},
                             Pin{"rotornet", 3.370123098549, 25598, 23640, 165189539.9},
                             Pin{"rotornet-vlb", 2.159985308469, 56451, 35553, 184972416.0}),
                         [](const auto& info) {
                           std::string name = info.param.scheduler;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace flux::experiments
