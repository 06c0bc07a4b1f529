// Pins the exact schedules `spectra-ref` and `spectra` produce today on one instance per
// generator (slot switch, start and end bits, permutation), so that a faster kernel that keeps the
// algorithm can be checked to reproduce them bit for bit. The fingerprints were recorded with the
// cold-started sparse assignment kernel; a change here means the schedules changed.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "matrix/generators.hpp"
#include "spectra/spectra.hpp"
#include "spectra_test_util.hpp"

namespace flux {
namespace {

// FNV-1a over the slots in order.
std::uint64_t fingerprint(const MatrixSchedule& s) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  for (const Slot& slot : s.slots) {
    mix(static_cast<std::uint64_t>(slot.sw));
    mix(std::bit_cast<std::uint64_t>(slot.start));
    mix(std::bit_cast<std::uint64_t>(slot.end));
    for (int j : slot.perm) mix(static_cast<std::uint64_t>(j));
  }
  return h;
}

struct Pinned {
  std::string kind;
  GeneratorOptions opt;
  int switches;
  double delta;
  std::uint64_t ref, improved;
};

GeneratorOptions sized(int n) {
  GeneratorOptions o;
  o.n = n;
  return o;
}

TEST(SchedulePin, SameSchedulesAsTheColdKernel) {
  const Pinned cases[] = {
      {"synthetic", {}, 16, 0.01, 18221880120520315087u, 13368757841614003145u},
      {"synthetic", sized(40), 4, 0.04, 1443040283238130462u, 1443040283238130462u},
      {"sparse", sized(50), 8, 0.02, 468603578177676403u, 3182986524718497991u},
      {"gpt", {}, 4, 0.01, 8402926630054414726u, 6145188695238274932u},
      {"moe", sized(64), 16, 0.01, 7625055657751982584u, 7625055657751982584u},
      {"perm", {}, 8, 0.04, 3007388317865788967u, 14404027157551788748u},
      {"alltoall", sized(16), 4, 0.02, 17764517409422145334u, 17764517409422145334u},
  };
  for (const Pinned& c : cases) {
    SCOPED_TRACE(c.kind + " n=" + std::to_string(c.opt.n));
    const MatrixProblem p = test::problem(generate_matrix(c.kind, c.opt, 1), c.switches, c.delta);
    EXPECT_EQ(fingerprint(spectra_reference(p).schedule), c.ref);
    EXPECT_EQ(fingerprint(spectra_improved(p).schedule), c.improved);
  }
}

}  // namespace
}  // namespace flux
