// Fuzz target: flux.matrix-schedule/1.
#include "fuzz_support.hpp"
#include "matrix/schedule.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flux::fuzz::round_trip(
      data, size,
      [](const std::string& t) { return flux::matrix::parse_matrix_schedule(t, "fuzz"); },
      [](const flux::matrix::MatrixSchedule& s) {
        return flux::matrix::matrix_schedule_to_json(s);
      });
}
