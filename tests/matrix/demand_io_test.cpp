#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "matrix/demand.hpp"
#include "matrix/schedule.hpp"

namespace flux::matrix {
namespace {

TEST(DemandIo, RoundTripsJson) {
  Demand d;
  d.unit = DemandUnit::bytes;
  d.matrix = Matrix(3);
  d.matrix(0, 1) = 5;
  d.matrix(2, 0) = 0.1234567890123;
  const Demand back = parse_demand_json(demand_to_json(d), "d.json");
  EXPECT_EQ(back.matrix, d.matrix);
  EXPECT_EQ(back.unit, DemandUnit::bytes);
}

// Found by fuzzing: "-0" was kept as a negative zero, written as -0 and read back from JSON as 0,
// so the matrix did not survive the trip through its own file format.
TEST(DemandIo, NegativeZeroReadsAsZero) {
  EXPECT_FALSE(std::signbit(parse_demand_csv("-0\n", "d.csv").matrix(0, 0)));
  const Demand d = parse_demand_json(
      R"({"format": "flux.demand/1", "n": 1, "unit": "bytes", "demand": [[-0.0]]})", "d.json");
  EXPECT_FALSE(std::signbit(d.matrix(0, 0)));
  EXPECT_EQ(demand_to_json(parse_demand_json(demand_to_json(d), "d.json")), demand_to_json(d));
}

TEST(DemandIo, ReadsCsv) {
  const Demand d = parse_demand_csv("0, 1,2\n3,0,4\r\n5,6,0\n\n", "d.csv");
  EXPECT_EQ(d.matrix.n(), 3);
  EXPECT_EQ(d.matrix(1, 2), 4);
}

void expect_error(const std::string& json, const std::string& field) {
  try {
    (void)parse_demand_json(json, "d.json");
    ADD_FAILURE() << "accepted " << json;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "d.json");
    EXPECT_EQ(e.field(), field) << e.what();
  }
}

TEST(DemandIo, RejectsBadJsonNamingTheField) {
  expect_error(R"({"format":"flux.demand/2","n":1,"unit":"bytes","demand":[[1]]})", "/format");
  expect_error(R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[1,2]]})", "/demand");
  expect_error(R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[1,2],[3]]})",
               "/demand/1");
  expect_error(R"({"format":"flux.demand/1","n":2,"unit":"bytes","demand":[[1,2],[3,-1]]})",
               "/demand/1/1");
  expect_error(R"({"format":"flux.demand/1","n":1,"unit":"bytes","demand":[["x"]]})",
               "/demand/0/0");
  expect_error(R"({"format":"flux.demand/1","n":1,"unit":"bits","demand":[[1]]})", "/unit");
  expect_error(R"({"format":"flux.demand/1","unit":"bytes","demand":[[1]]})", "/n");
  expect_error(R"({"format":"flux.demand/1","n":0,"unit":"bytes","demand":[]})", "/n");
  expect_error("{not json", "");
}

TEST(DemandIo, RejectsRaggedAndNegativeCsv) {
  EXPECT_THROW((void)parse_demand_csv("1,2\n3\n", "d.csv"), InputError);
  EXPECT_THROW((void)parse_demand_csv("1,2,3\n4,5,6\n", "d.csv"), InputError);
  EXPECT_THROW((void)parse_demand_csv("1,-2\n3,4\n", "d.csv"), InputError);
  EXPECT_THROW((void)parse_demand_csv("1,nan\n3,4\n", "d.csv"), InputError);
  EXPECT_THROW((void)parse_demand_csv("", "d.csv"), InputError);
}

TEST(MatrixScheduleIo, RoundTrips) {
  MatrixSchedule s;
  s.algorithm = "spectra";
  s.n = 3;
  s.switches = 2;
  s.delta = 0.01;
  s.slots.push_back({1, 0.01, 0.5, {2, -1, 0}});
  s.makespan = 0.5;
  s.lower_bound = 0.4;
  const MatrixSchedule back = parse_matrix_schedule(matrix_schedule_to_json(s), "s.json");
  ASSERT_EQ(back.slots.size(), 1u);
  EXPECT_EQ(back.slots[0].perm, s.slots[0].perm);
  EXPECT_EQ(back.slots[0].sw, 1);
  EXPECT_DOUBLE_EQ(back.makespan, 0.5);
}

TEST(MatrixScheduleIo, RejectsOutOfRangePortsAndSwitches) {
  const std::string base =
      R"({"format":"flux.matrix-schedule/1","algorithm":"x","n":2,"switches":1,"delta":0,"rate":1,)"
      R"("reconfiguration":"all-stop","makespan":1,"lower_bound":0,"slots":)";
  EXPECT_THROW(
      (void)parse_matrix_schedule(base + R"([{"switch":1,"start":0,"end":1,"perm":[0,1]}]})", "s"),
      InputError);
  EXPECT_THROW(
      (void)parse_matrix_schedule(base + R"([{"switch":0,"start":0,"end":1,"perm":[0,2]}]})", "s"),
      InputError);
  EXPECT_THROW(
      (void)parse_matrix_schedule(base + R"([{"switch":0,"start":2,"end":1,"perm":[0,1]}]})", "s"),
      InputError);
}

}  // namespace
}  // namespace flux::matrix
