#include "matrix/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <utility>

namespace flux::matrix {

const char* to_string(ViolationKind k) {
  switch (k) {
    case ViolationKind::header:
      return "header";
    case ViolationKind::permutation:
      return "permutation";
    case ViolationKind::timing:
      return "timing";
    case ViolationKind::gap:
      return "gap";
    case ViolationKind::overlap:
      return "overlap";
    case ViolationKind::coverage:
      return "coverage";
    case ViolationKind::makespan:
      return "makespan";
    case ViolationKind::bound:
      return "bound";
  }
  return "?";
}

void VerifyReport::add(ViolationKind kind, std::string message) {
  if (counts_[static_cast<int>(kind)]++ < opt_.max_messages_per_kind)
    kept_.push_back({kind, std::move(message)});
}

long long VerifyReport::total() const {
  long long t = 0;
  for (long long c : counts_) t += c;
  return t;
}

std::string VerifyReport::to_text() const {
  std::string out;
  for (const Violation& v : kept_) out += fmt::format("{}: {}\n", to_string(v.kind), v.message);
  if (omitted() > 0) out += fmt::format("... and {} more violations not listed\n", omitted());
  return out;
}

namespace {

std::string num(double v) {
  return fmt::format("{:.10g}", v);
}

struct Tolerance {
  double time = 0.0;    // absolute, on times
  double amount = 0.0;  // absolute, on demand units
};

Tolerance tolerance(const Matrix& d, const MatrixSchedule& s) {
  // Not the file's makespan: a bogus value there must not widen the tolerance of other checks.
  const double end = schedule_end(s);
  const double scale = std::isfinite(s.delta) ? std::max(end, s.delta) : end;
  const double rate = std::isfinite(s.rate) && s.rate > 0 ? s.rate : 1.0;
  return {1e-9 * scale, 1e-9 * std::max(d.max_entry(), rate * end)};
}

// Returns whether coverage can be checked at all (n and rate consistent).
bool check_header(const Matrix& d, const MatrixSchedule& s, VerifyReport& r) {
  bool usable = true;
  if (s.n != d.n()) {
    r.add(ViolationKind::header,
          fmt::format("schedule n = {} but the demand matrix has n = {}", s.n, d.n()));
    usable = false;
  }
  if (!(s.rate > 0) || !std::isfinite(s.rate)) {
    r.add(ViolationKind::header, fmt::format("rate = {} must be finite and > 0", num(s.rate)));
    usable = false;
  }
  if (!(s.delta >= 0) || !std::isfinite(s.delta))
    r.add(ViolationKind::header, fmt::format("delta = {} must be finite and >= 0", num(s.delta)));
  if (s.switches < 1)
    r.add(ViolationKind::header, fmt::format("switches = {} must be >= 1", s.switches));
  const bool all_stop = s.reconfiguration == Reconfiguration::all_stop;
  if (all_stop && !s.circuits.empty())
    r.add(ViolationKind::header, "an all-stop schedule must not list per-port circuits");
  if (!all_stop && !s.slots.empty())
    r.add(ViolationKind::header, "a per-port schedule must not list all-stop slots");
  return usable;
}

// Shared by slots and circuits: switch index and times. Returns whether the item is usable.
bool check_times(const std::string& what, int sw, double start, double end, const MatrixSchedule& s,
                 VerifyReport& r) {
  bool ok = true;
  if (sw < 0 || sw >= s.switches) {
    r.add(ViolationKind::timing,
          fmt::format("{}: switch {} is outside [0, {})", what, sw, s.switches));
    ok = false;
  }
  if (!std::isfinite(start) || !std::isfinite(end) || start < 0) {
    r.add(ViolationKind::timing,
          fmt::format("{}: times [{}, {}) must be finite and >= 0", what, num(start), num(end)));
    return false;
  }
  if (end < start) {
    r.add(ViolationKind::timing,
          fmt::format("{}: ends at {} before it starts at {}", what, num(end), num(start)));
    ok = false;
  }
  return ok;
}

bool check_perm(const std::string& what, const std::vector<int>& perm, int n, VerifyReport& r) {
  if (perm.size() != static_cast<std::size_t>(n)) {
    r.add(ViolationKind::permutation,
          fmt::format("{}: perm has {} entries, expected n = {}", what, perm.size(), n));
    return false;
  }
  bool ok = true;
  std::vector<int> user(static_cast<std::size_t>(n), -1);  // input using each output
  for (int i = 0; i < n; ++i) {
    const int o = perm[static_cast<std::size_t>(i)];
    if (o == -1) continue;
    if (o < -1 || o >= n) {
      r.add(ViolationKind::permutation,
            fmt::format("{}: perm[{}] = {} is outside [-1, {})", what, i, o, n));
      ok = false;
    } else if (int& u = user[static_cast<std::size_t>(o)]; u >= 0) {
      r.add(ViolationKind::permutation,
            fmt::format("{}: output {} used by inputs {} and {}", what, o, u, i));
      ok = false;
    } else {
      u = i;
    }
  }
  return ok;
}

// One busy interval on a resource (a switch, or a port of a switch). `partner` identifies the
// configuration: consecutive intervals with the same partner need no reconfiguration.
struct Busy {
  double start = 0.0;
  double end = 0.0;
  long long partner = 0;
  std::string name;
};

// First interval at >= delta; each next one must not overlap any earlier one and, when its
// partner differs from the previous one's, start >= previous end + delta.
void check_sequence(const std::string& resource, std::vector<Busy> seq, double delta, double tol,
                    VerifyReport& r) {
  std::sort(seq.begin(), seq.end(), [](const Busy& a, const Busy& b) {
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  if (seq.empty()) return;
  if (seq.front().start < delta - tol)
    r.add(ViolationKind::gap,
          fmt::format("{}: {} starts at {}, before the first reconfiguration ends at delta = {} "
                      "(short by {})",
                      resource, seq.front().name, num(seq.front().start), num(delta),
                      num(delta - seq.front().start)));
  std::size_t last = 0;  // the interval with the latest end so far
  for (std::size_t k = 1; k < seq.size(); ++k) {
    const Busy& prev = seq[last];
    const Busy& cur = seq[k];
    if (cur.start < prev.end - tol) {
      r.add(ViolationKind::overlap,
            fmt::format("{}: {} [{}, {}) overlaps {} [{}, {}) by {}", resource, cur.name,
                        num(cur.start), num(cur.end), prev.name, num(prev.start), num(prev.end),
                        num(std::min(prev.end, cur.end) - cur.start)));
    } else if (cur.partner != prev.partner && cur.start < prev.end + delta - tol) {
      r.add(ViolationKind::gap,
            fmt::format("{}: {} starts {} after {} ends at {}; reconfiguration needs delta = {} "
                        "(short by {})",
                        resource, cur.name, num(cur.start - prev.end), prev.name, num(prev.end),
                        num(delta), num(prev.end + delta - cur.start)));
    }
    if (cur.end >= prev.end) last = k;
  }
}

std::string slot_name(std::size_t k, const Slot& slot) {
  return fmt::format("slot {} (switch {}, [{}, {}))", k, slot.sw, num(slot.start), num(slot.end));
}

// Validates every slot, checks per-switch gaps, accumulates service time. Returns served time.
Matrix check_slots(const MatrixSchedule& s, double tol, VerifyReport& r) {
  Matrix served(std::max(s.n, 0));
  std::map<int, std::vector<Busy>> per_switch;  // sparse: `switches` may be huge in a bad file
  for (std::size_t k = 0; k < s.slots.size(); ++k) {
    const Slot& slot = s.slots[k];
    const std::string name = slot_name(k, slot);
    const bool times_ok = check_times(name, slot.sw, slot.start, slot.end, s, r);
    const bool perm_ok = check_perm(name, slot.perm, s.n, r);
    if (!times_ok) continue;
    per_switch[slot.sw].push_back(
        {slot.start, slot.end, -1 - static_cast<long long>(k), fmt::format("slot {}", k)});
    if (!perm_ok) continue;
    for (int i = 0; i < s.n; ++i)
      if (const int o = slot.perm[static_cast<std::size_t>(i)]; o >= 0)
        served(i, o) += slot.end - slot.start;
  }
  for (auto& [sw, seq] : per_switch)
    check_sequence(fmt::format("switch {}", sw), std::move(seq), s.delta, tol, r);
  return served;
}

Matrix check_circuits(const MatrixSchedule& s, double tol, VerifyReport& r) {
  Matrix served(std::max(s.n, 0));
  std::map<std::pair<int, int>, std::vector<Busy>> tx, rx;  // (switch, port) -> circuits
  for (std::size_t k = 0; k < s.circuits.size(); ++k) {
    const PortCircuit& c = s.circuits[k];
    const std::string name = fmt::format("circuit {} ({} -> {} on switch {}, [{}, {}))", k, c.src,
                                         c.dst, c.sw, num(c.start), num(c.end));
    bool ok = check_times(name, c.sw, c.start, c.end, s, r);
    if (c.src < 0 || c.src >= s.n || c.dst < 0 || c.dst >= s.n) {
      r.add(ViolationKind::permutation, fmt::format("{}: port outside [0, {})", name, s.n));
      ok = false;
    }
    if (!ok) continue;
    const std::string short_name = fmt::format("circuit {} ({} -> {})", k, c.src, c.dst);
    tx[{c.sw, c.src}].push_back({c.start, c.end, c.dst, short_name});
    rx[{c.sw, c.dst}].push_back({c.start, c.end, c.src, short_name});
    served(c.src, c.dst) += c.end - c.start;
  }
  for (auto& [key, seq] : tx)
    check_sequence(fmt::format("switch {} TX port {}", key.first, key.second), std::move(seq),
                   s.delta, tol, r);
  for (auto& [key, seq] : rx)
    check_sequence(fmt::format("switch {} RX port {}", key.first, key.second), std::move(seq),
                   s.delta, tol, r);
  return served;
}

void check_coverage(const Matrix& d, const Matrix& served, double rate, double tol,
                    VerifyReport& r) {
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) {
      const double got = rate * served(i, j);
      if (got < d(i, j) - tol)
        r.add(ViolationKind::coverage,
              fmt::format("entry ({}, {}): demand {} but served {} (short by {})", i, j,
                          num(d(i, j)), num(got), num(d(i, j) - got)));
    }
}

}  // namespace

VerifyReport verify_matrix_schedule(const Matrix& demand, const MatrixSchedule& s,
                                    const VerifyOptions& opt) {
  VerifyReport r(opt);
  const Tolerance tol = tolerance(demand, s);
  const bool coverage_ok = check_header(demand, s, r);
  const Matrix served = s.reconfiguration == Reconfiguration::all_stop
                            ? check_slots(s, tol.time, r)
                            : check_circuits(s, tol.time, r);
  if (coverage_ok) check_coverage(demand, served, s.rate, tol.amount, r);
  const double end = schedule_end(s);
  if (!(std::abs(s.makespan - end) <= tol.time))
    r.add(ViolationKind::makespan,
          fmt::format("makespan is {} but the latest end is {} (off by {})", num(s.makespan),
                      num(end), num(s.makespan - end)));
  if (s.lower_bound > end + tol.time)
    r.add(ViolationKind::bound,
          fmt::format("lower_bound {} exceeds the makespan {} by {}", num(s.lower_bound), num(end),
                      num(s.lower_bound - end)));
  return r;
}

}  // namespace flux::matrix
