// The simulator's CSV files survive task names that are not CSV-safe: each file parses with an
// independent RFC 4180 reader into the header's number of fields, and the name comes back intact.
#include <gtest/gtest.h>

#include "fabric/sim_report.hpp"
#include "schedulers/registry.hpp"
#include "support/csv_reader.hpp"
#include "support/fabrics.hpp"
#include "support/sim_checks.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

using testing::CsvRecord;
using testing::parse_csv;

void expect_rectangular(const std::vector<CsvRecord>& records, const char* file) {
  ASSERT_FALSE(records.empty()) << file;
  for (const CsvRecord& r : records) EXPECT_EQ(r.size(), records.front().size()) << file;
}

TEST(CsvOutput, TaskNamesWithCommasQuotesAndNewlinesRoundTrip) {
  const std::vector<std::string> names = {"aten::mm, \"fused\" op", "two\nlines", "plain"};
  testing::WorkloadBuilder b(4);
  const int c = b.compute(0, 1e-6);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int s = b.send(0, static_cast<int>(i) + 1, 1e6, {c});
    b.w.tasks[static_cast<std::size_t>(s)].name = names[i];
  }
  const fabric::Fabric f = testing::make_fabric(4, 1, 1e-6, {.rate = 1e11});
  const fabric::SimResult r = simulate(b.w, f, "rotornet");
  testing::expect_complete_run(b.w, f, r);

  const auto flows = parse_csv(flows_csv(b.w, r.trace));
  expect_rectangular(flows, "flows.csv");
  ASSERT_EQ(flows.size(), names.size() + 1);
  ASSERT_EQ(flows[0][1], "name");
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(flows[i + 1][1], names[i]);
    EXPECT_EQ(flows[i + 1][3], std::to_string(i + 1));  // dst: the fields after the name line up
    EXPECT_EQ(flows[i + 1][4], "1000000");
  }
  expect_rectangular(parse_csv(circuits_csv(r.schedule)), "circuits.csv");
  expect_rectangular(parse_csv(nic_buffer_csv(b.w, f, r)), "nic_buffer.csv");
}

}  // namespace
}  // namespace flux::schedulers
