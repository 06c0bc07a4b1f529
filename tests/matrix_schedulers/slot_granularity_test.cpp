// No registered matrix scheduler emits a slot (or per-port circuit) that carries nothing or lasts
// less than one byte at line rate: each one costs a full reconfiguration delay, so a residue slot
// of the integer conversion is pure loss. Checked on byte demand from every generator.
#include <gtest/gtest.h>

#include <cmath>

#include "matrix/generators.hpp"
#include "matrix_baselines/test_support.hpp"
#include "matrix_schedulers/registry.hpp"

namespace flux::matrix_schedulers {
namespace {

constexpr double kRate = 1e11;  // 800 Gb/s in bytes per second
constexpr double kByte = 1.0 / kRate;

// The generator's matrix with the busiest port at `bytes`, in whole bytes.
Matrix whole_bytes(const Matrix& normalised, double bytes) {
  Matrix m = normalised.scaled(bytes);
  for (int i = 0; i < m.n(); ++i)
    for (int j = 0; j < m.n(); ++j)
      if (m(i, j) > 0) m(i, j) = std::max(1.0, std::round(m(i, j)));
  return m;
}

bool carries(const Matrix& bytes, int i, int j) {
  return j >= 0 && bytes(i, j) > 0;
}

void expect_no_empty_or_sub_byte_slot(const Matrix& bytes, const matrix::MatrixSchedule& s) {
  const double shortest = kByte * (1 - 1e-6);
  for (const matrix::Slot& slot : s.slots) {
    EXPECT_GE(slot.end - slot.start, shortest)
        << "slot on switch " << slot.sw << " at " << slot.start;
    bool any = false;
    for (int i = 0; i < bytes.n(); ++i)
      any |= carries(bytes, i, slot.perm[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(any) << "slot on switch " << slot.sw << " at " << slot.start << " carries nothing";
  }
  for (const matrix::PortCircuit& c : s.circuits) {
    EXPECT_GE(c.end - c.start, shortest) << c.src << "->" << c.dst << " at " << c.start;
    EXPECT_TRUE(carries(bytes, c.src, c.dst)) << c.src << "->" << c.dst << " carries nothing";
  }
}

TEST(SlotGranularity, NoAlgorithmEmitsAnEmptyOrSubByteSlotOnByteDemand) {
  for (const std::string& kind : matrix::generator_kinds())
    for (std::uint64_t seed : {1, 2}) {
      matrix::GeneratorOptions opt;
      opt.n = 32;
      opt.tokens = 128;
      const Matrix bytes = whole_bytes(generate_matrix(kind, opt, seed), 1e8);
      for (const MatrixAlgorithm& a : matrix_algorithms())
        for (int s : {1, 4}) {
          SCOPED_TRACE(a.name + " on " + kind + " seed " + std::to_string(seed) +
                       " s=" + std::to_string(s));
          const matrix::MatrixProblem p{
              .time = bytes.scaled(kByte), .switches = s, .delta = 1e-5, .byte_time = kByte};
          const matrix::MatrixResult r = a.run(p, {.seed = seed});
          testing::expect_verified(p.time, r);
          expect_no_empty_or_sub_byte_slot(bytes, r.schedule);
        }
    }
}

}  // namespace
}  // namespace flux::matrix_schedulers
