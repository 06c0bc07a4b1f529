#pragma once
// The certificate checker for matrix schedules (docs/models.md, docs/formats.md): the one verifier
// every matrix algorithm, every test and `flux matrix verify` go through.
//
// Checks, all-stop: every slot's perm is a valid partial permutation (size n, entries in [-1, n),
// no output used twice), switch index in range, 0 <= start <= end, on each switch the first slot
// starts at >= delta and consecutive slots are separated by >= delta (so they are disjoint).
// Per-port: per (switch, TX port) and per (switch, RX port) no two circuits at once, consecutive
// different circuits separated by >= delta, the first circuit at >= delta.
// Both: coverage rate * sum(durations of slots serving (i, j)) >= D[i][j] for every entry, the
// file's makespan equals the latest end, n equals the demand's, lower_bound <= makespan.
//
// Tolerances: times compare with 1e-9 x max(latest end, delta) (as for circuit schedules);
// coverage with 1e-9 x max(max entry, rate x latest end) because a duration end - start carries
// a rounding error relative to the time scale, not to the entry.
//
// Complexity: O(n^2 + total slot size + C log C) time, O(n^2) memory (C = slots or circuits).
#include <array>
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "matrix/schedule.hpp"

namespace flux::matrix {

enum class ViolationKind {
  header,       // n mismatch, rate/delta/switches out of range, wrong list for the mode
  permutation,  // perm of the wrong size, index out of range, output used twice
  timing,       // NaN, negative time, end < start, switch index out of range
  gap,          // reconfiguration gap shorter than delta (or first slot/circuit before delta)
  overlap,      // two slots on one switch, or two circuits on one port, at the same time
  coverage,     // an entry served less than its demand
  makespan,     // file makespan differs from the latest end
  bound,        // the file's lower_bound exceeds its makespan (no valid bound can)
};
inline constexpr int kViolationKinds = 8;
const char* to_string(ViolationKind k);

struct Violation {
  ViolationKind kind;
  std::string message;  // names the slot/circuit/switch/entry and the amount
};

struct VerifyOptions {
  // Messages kept per kind; further violations are only counted (a 4096-port schedule could
  // otherwise produce millions of lines).
  int max_messages_per_kind = 50;
};

class VerifyReport {
 public:
  explicit VerifyReport(const VerifyOptions& opt = {}) : opt_(opt) {}
  void add(ViolationKind kind, std::string message);

  [[nodiscard]] bool valid() const { return total() == 0; }
  [[nodiscard]] long long total() const;
  [[nodiscard]] long long count(ViolationKind k) const { return counts_[static_cast<int>(k)]; }
  [[nodiscard]] const std::vector<Violation>& violations() const { return kept_; }
  [[nodiscard]] long long omitted() const { return total() - static_cast<long long>(kept_.size()); }
  // One violation per line, then "... and N more" when messages were dropped.
  [[nodiscard]] std::string to_text() const;

 private:
  VerifyOptions opt_;
  std::vector<Violation> kept_;
  std::array<long long, kViolationKinds> counts_{};
};

// `demand` is in the file's unit (bytes, or normalised with rate 1); the schedule's `rate`
// converts slot time into demand units.
[[nodiscard]] VerifyReport verify_matrix_schedule(const Matrix& demand, const MatrixSchedule& s,
                                                  const VerifyOptions& opt = {});

}  // namespace flux::matrix
