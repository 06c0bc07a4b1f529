#include "fabric/run_budget.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "fabric/sim_report.hpp"

namespace flux::fabric {
namespace {

// The message of check_output_budget's refusal, or "accepted".
std::string verdict(std::size_t records, CircuitOutputs outputs) {
  TimedSchedule s;
  s.circuits.resize(records);
  try {
    check_output_budget(s, "bvn", "f.json", outputs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// A run that writes every file is refused at the output cap, as before.
TEST(RunBudget, EveryFileKeepsTheOutputCap) {
  const std::size_t cap = max_circuit_records();
  EXPECT_EQ(cap, max_circuit_records(CircuitOutputs{}));
  EXPECT_EQ(cap, 1851851u);  // 0.5 GB / 270 B
  EXPECT_EQ(verdict(cap, {}), "accepted");
  const std::string refused = verdict(cap + 1, {});
  EXPECT_NE(refused.find("a schedule of at most 0.5 GB of output; the bvn schedule has 1851852 "
                         "circuit records, about 0.5 GB of files"),
            std::string::npos)
      << refused;
}

// Files the run does not write cost nothing: fewer files, a higher cap; circuits.csv alone holds
// ten times as many records as the three files together.
TEST(RunBudget, OnlyTheFilesWrittenCount) {
  const CircuitOutputs csv_only{.csv = true, .schedule = false, .timeline = false};
  const CircuitOutputs no_timeline{.csv = true, .schedule = true, .timeline = false};
  EXPECT_GT(max_circuit_records(no_timeline), max_circuit_records());
  EXPECT_GT(max_circuit_records(csv_only), max_circuit_records(no_timeline));
  EXPECT_EQ(max_circuit_records(csv_only), 18518518u);  // 0.5 GB / 27 B
  EXPECT_EQ(verdict(max_circuit_records() + 1, csv_only), "accepted");
  EXPECT_EQ(verdict(max_circuit_records() + 1, no_timeline), "accepted");
}

// A summary-only run writes no circuit file: only the records' memory bounds it.
TEST(RunBudget, WithoutCircuitFilesTheRecordsMemoryIsBounded) {
  const CircuitOutputs none{.csv = false, .schedule = false, .timeline = false};
  EXPECT_FALSE(none.any());
  EXPECT_EQ(max_circuit_records(none), static_cast<std::size_t>(2e9 / sizeof(TimedCircuit)));
  EXPECT_EQ(verdict(max_circuit_records() + 1, none), "accepted");
}

// A periodic scheduler stopped while it runs names the limit that stopped it.
TEST(RunBudget, RecordsOverBudgetNameTheLimitOfTheFilesWritten) {
  const CircuitOutputs none{.csv = false, .schedule = false, .timeline = false};
  EXPECT_EQ(circuit_records_over_budget(7).limit, "0.5 GB of output");
  EXPECT_EQ(circuit_records_over_budget(7, none).limit, "2 GB of circuit records in memory");
  EXPECT_EQ(circuit_records_over_budget(7, none).size, "at least 7 circuit records");
  // ... and the option that lengthens each periodic scheduler's frame.
  for (const char* option :
       {"--bvn-frame for bvn-periodic", "--frame for bvn", "--slot for rotornet"})
    EXPECT_NE(circuit_records_over_budget(7).advice.find(option), std::string::npos) << option;
}

TEST(RunBudget, OutputsAreReadFromTheFileNames) {
  const CircuitOutputs summary = CircuitOutputs::among({"summary.json"});
  EXPECT_FALSE(summary.any());
  const CircuitOutputs some = CircuitOutputs::among({"summary.json", "timeline.json", "flows.csv"});
  EXPECT_FALSE(some.csv);
  EXPECT_FALSE(some.schedule);
  EXPECT_TRUE(some.timeline);
  const CircuitOutputs all = CircuitOutputs::among(sim_output_files());
  EXPECT_TRUE(all.csv && all.schedule && all.timeline);
}

}  // namespace
}  // namespace flux::fabric
