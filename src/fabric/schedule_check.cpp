#include "fabric/schedule_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

#include "core/bucket_filing.hpp"
#include "core/prefetch.hpp"

#include "fabric/workload_fit.hpp"

namespace flux::fabric {

namespace {

// The port ranges the circuits' ends are filed in (for_each_port).
constexpr std::size_t kPortGroups = 8;

// One port's use of one circuit.
struct PortUse {
  int gpu, sw;
  bool tx;  // simplex TX side (always true for duplex: one port per GPU and OCS)
  int partner;
  Time up, down;
  auto key() const { return std::tie(sw, gpu, tx, up, down, partner); }
  auto time_key() const { return std::tie(up, down, partner); }  // key() within one port
};

std::string circuit_text(const PortUse& u) {
  return fmt::format("circuit to gpu {} [{}, {}] s", u.partner, to_seconds(u.up),
                     to_seconds(u.down));
}

// End a (its sender, for simplex) or b of circuit c.
PortUse port_use(const TimedCircuit& c, bool end_b, bool duplex) {
  if (end_b) return {c.b, c.sw, duplex, c.a, c.up, c.down};
  return {c.a, c.sw, true, c.b, c.up, c.down};
}

// Sorts records by their key().
template <typename T>
void sort_by_key(std::vector<T>& v) {
  std::sort(v.begin(), v.end(), [](const T& x, const T& y) { return x.key() < y.key(); });
}

// Sorts one port's records by time_key() (their key() within one port), unless they already are:
// a log written window after window has its circuits so, and tasks in time order their hops.
template <typename T>
void sort_by_time_key(std::vector<T>& v) {
  const auto earlier = [](const T& x, const T& y) { return x.time_key() < y.time_key(); };
  if (!std::is_sorted(v.begin(), v.end(), earlier)) std::sort(v.begin(), v.end(), earlier);
}

// Whether the circuits' ends can be filed by port: every circuit on the fabric's ports, and fewer
// ends than 4-byte numbers count.
bool fileable_by_port(const std::vector<TimedCircuit>& circuits, const Fabric& f) {
  return circuits.size() < (std::size_t{1} << 31) &&
         std::all_of(circuits.begin(), circuits.end(), [&](const TimedCircuit& c) {
           return c.sw >= 0 && c.sw < f.ocs && c.a >= 0 && c.a < f.gpus && c.b >= 0 && c.b < f.gpus;
         });
}

bool same_port(const PortUse& x, const PortUse& y) {
  return x.gpu == y.gpu && x.sw == y.sw && x.tx == y.tx;
}

// Calls `each` with every port's uses sorted by key(), ports in key() order (OCS, GPU, RX before
// TX). When every circuit is on the fabric's ports: the circuits' ends filed by port (a counting
// sort of 4-byte numbers, circuit × 2 + end), then each port's uses sorted in a scratch array;
// sorting a few thousand uses per port costs about half the comparisons of one sort of them all,
// and no 32-byte copy of every use is held (1.5 GB on the 1,024-GPU rotornet-vlb iteration).
// Otherwise (a schedule the check refuses) one sorted array of every use, cut at its ports.
template <typename F>
void for_each_port(const std::vector<TimedCircuit>& circuits, const Fabric& f, F&& each) {
  const bool duplex = f.circuit == CircuitKind::duplex;
  std::vector<PortUse> uses;
  if (!fileable_by_port(circuits, f)) {
    for (const TimedCircuit& c : circuits) {
      uses.push_back(port_use(c, false, duplex));
      uses.push_back(port_use(c, true, duplex));
    }
    sort_by_key(uses);
    for (std::size_t i = 0, next = 0; i < uses.size(); i = next) {
      for (next = i + 1; next < uses.size() && same_port(uses[i], uses[next]);) ++next;
      each(std::span<const PortUse>(uses).subspan(i, next - i));
    }
    return;
  }
  const std::size_t sides = duplex ? 1 : 2;
  const auto port = [&](const PortUse& u) {
    return (static_cast<std::size_t>(u.sw) * static_cast<std::size_t>(f.gpus) +
            static_cast<std::size_t>(u.gpu)) *
               sides +
           (duplex || !u.tx ? 0 : 1);
  };
  const auto end_use = [&](std::uint32_t e) {
    return port_use(circuits[e / 2], e % 2 == 1, duplex);
  };
  const auto ends = static_cast<std::uint32_t>(2 * circuits.size());
  const std::size_t ports =
      static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(f.gpus) * sides;
  std::vector<std::uint32_t> per_port(ports, 0);
  for (std::uint32_t e = 0; e < ends; ++e) ++per_port[port(end_use(e))];
  // Ranges of consecutive ports holding about 1/kPortGroups of the ends each, filed one after the
  // other: the filed ends take that share of their 4 bytes each (46 M ends on the 1,024-GPU
  // rotornet-vlb iteration, at the check's peak) for one more read of the circuits per range.
  const std::size_t most = ends / kPortGroups + 1;
  for (std::size_t first = 0, last = 0; first < ports; first = last) {
    std::size_t held = 0;
    for (; last < ports && (last == first || held + per_port[last] <= most); ++last)
      held += per_port[last];
    BucketFiling filed(last - first);
    for (std::size_t p = first; p < last; ++p) filed.count(p - first, per_port[p]);
    filed.place();
    for (std::uint32_t e = 0; e < ends; ++e)
      if (const std::size_t p = port(end_use(e)); p >= first && p < last) filed.put(p - first, e);
    for (std::size_t p = 0; p < filed.buckets(); ++p) {
      uses.clear();
      for_each_prefetched(
          filed.bucket(p), [&](std::uint32_t e) { return &circuits[e / 2]; },
          [&](std::uint32_t e) { uses.push_back(end_use(e)); });
      sort_by_time_key(uses);
      each(std::span<const PortUse>(uses));
    }
  }
}

void check_ports(std::span<const PortUse> uses, const Fabric& f, Time tol,
                 std::vector<std::string>& out) {
  const Time tau = to_time(f.reconfig_delay);
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const PortUse& u = uses[i];
    const auto port = [&] { return describe_port(f, u.gpu, u.sw, u.tx); };  // for errors only
    if (i == 0 || !same_port(uses[i - 1], u)) {
      if (!f.initial_config_free && u.up + tol < tau)
        out.push_back(fmt::format("{}: first {} is up before the reconfiguration delay τ = {} s",
                                  port(), circuit_text(u), f.reconfig_delay));
      continue;
    }
    const PortUse& prev = uses[i - 1];
    if (u.up + tol < prev.down) {
      out.push_back(fmt::format("{} is on two circuits at once: {} and {}", port(),
                                circuit_text(prev), circuit_text(u)));
    } else if (u.partner != prev.partner && u.up + tol < prev.down + tau) {
      out.push_back(fmt::format("{}: {} starts less than τ = {} s after {} ends", port(),
                                circuit_text(u), f.reconfig_delay, circuit_text(prev)));
    }
  }
}

// Port circuit changes in `uses` (sorted by port, then time): one per change of partner, plus one
// first set-up per port unless the initial configuration is free.
std::int64_t count_changes(std::span<const PortUse> uses, const Fabric& f) {
  std::int64_t count = 0;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (i == 0 || !same_port(uses[i - 1], uses[i])) {
      if (!f.initial_config_free) ++count;
    } else if (uses[i].partner != uses[i - 1].partner) {
      ++count;
    }
  }
  return count;
}

bool malformed(const Hop& h, const Fabric& f) {
  return h.sw < 0 || h.sw >= f.ocs || h.from == h.to || h.from < 0 || h.to < 0 ||
         h.from >= f.gpus || h.to >= f.gpus || !(h.bytes >= 0);
}

// A hop's own shape and rate; its circuit is CircuitCoverage's.
void check_hop(const Hop& h, int task, const workload::Workload& w, const Fabric& f,
               const LinkTiming& lt, Time tol, std::vector<std::string>& out) {
  auto who = [&] { return describe_task(w, task); };  // only for a violation: hops are millions
  if (malformed(h, f)) {
    out.push_back(
        fmt::format("{}: hop {} -> {} on OCS {} is malformed", who(), h.from, h.to, h.sw));
    return;
  }
  if (h.end - h.start + tol < lt.duration(h.bytes))
    out.push_back(fmt::format("{}: {} bytes on {} in [{}, {}] s is faster than α + bytes/B", who(),
                              h.bytes, describe_port(f, h.from, h.sw, true), to_seconds(h.start),
                              to_seconds(h.end)));
}

// Two hops in one direction of one port, (OCS, sending GPU), never overlap: each port's hops in
// the order (start, end, task), each against the one before it. Hops are numbered by their place
// in the schedule's array, which is task after task, so that number stands for the task in the
// order. Ports are visited in the order (OCS, GPU), and the violations come out in the order of
// one sort of every hop by (OCS, GPU, start, end, task).
struct DirectedHop {
  int sw, from;
  Time start, end;
  std::uint32_t hop;  // its place in the schedule's array: the order of its task
  auto key() const { return std::tie(sw, from, start, end, hop); }
  auto time_key() const { return std::tie(start, end, hop); }  // key() within one port
};

class DirectionCheck {
 public:
  DirectionCheck(const HopLists& hops, const workload::Workload& w, const Fabric& f, Time tol,
                 std::vector<std::string>& out)
      : hops_(hops),
        all_(hops.all()),
        w_(w),
        f_(f),
        tol_(tol),
        out_(out),
        filed_(static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(f.gpus)) {}

  // Files the hops of the sends by port: a counting sort of 4-byte hop numbers, where sorting a
  // copy of every hop took 32 bytes per hop (20 M hops on a 1,024-GPU rotor run: 0.65 GB).
  void file(std::size_t tasks) {
    for_each_send_hop(tasks, [&](std::size_t, const Hop& h) {
      if (on_a_port(h)) filed_.count(port(h));
    });
    filed_.place();
    for_each_send_hop(tasks, [&](std::size_t k, const Hop& h) {
      if (on_a_port(h))
        filed_.put(port(h), static_cast<std::uint32_t>(k));
      else
        off_ports_.push_back({h.sw, h.from, h.start, h.end, static_cast<std::uint32_t>(k)});
    });
  }

  // The numbers of the hops sent on port (OCS, GPU) sw · gpus + gpu, in array order (after file()).
  [[nodiscard]] std::span<const std::uint32_t> hops_from(std::size_t port) const {
    return filed_.bucket(port);
  }
  // Hops on no port of the fabric (malformed): run() compares them too.
  [[nodiscard]] bool has_off_port_hops() const { return !off_ports_.empty(); }

  void run() {
    sort_by_key(off_ports_);
    std::vector<DirectedHop> uses;
    for (std::size_t p = 0; p < filed_.buckets(); ++p) {
      const int sw = static_cast<int>(p / static_cast<std::size_t>(f_.gpus));
      const int from = static_cast<int>(p % static_cast<std::size_t>(f_.gpus));
      check_off_ports_before(sw, from);
      uses.clear();
      for (const std::uint32_t k : filed_.bucket(p))
        uses.push_back({sw, from, all_[k].start, all_[k].end, k});
      sort_by_time_key(uses);
      for (std::size_t i = 1; i < uses.size(); ++i) compare(uses[i - 1], uses[i]);
    }
    check_off_ports_before(INT32_MAX, INT32_MAX);
  }

 private:
  template <typename F>
  void for_each_send_hop(std::size_t tasks, F&& f) const {
    for (std::size_t t = 0; t < tasks; ++t) {
      if (w_.tasks[t].kind != workload::TaskKind::send) continue;
      const std::span<const Hop> list = hops_[t];
      const auto first = static_cast<std::size_t>(list.data() - all_.data());
      for (std::size_t k = 0; k < list.size(); ++k) f(first + k, list[k]);
    }
  }
  [[nodiscard]] bool on_a_port(const Hop& h) const {
    return h.sw >= 0 && h.sw < f_.ocs && h.from >= 0 && h.from < f_.gpus;
  }
  [[nodiscard]] std::size_t port(const Hop& h) const {
    return static_cast<std::size_t>(h.sw) * static_cast<std::size_t>(f_.gpus) +
           static_cast<std::size_t>(h.from);
  }
  // The malformed hops (reported by check_hop) whose (OCS, GPU) comes before (sw, from).
  void check_off_ports_before(int sw, int from) {
    for (; next_off_ < off_ports_.size() &&
           std::tie(off_ports_[next_off_].sw, off_ports_[next_off_].from) < std::tie(sw, from);
         ++next_off_)
      if (next_off_ > 0) compare(off_ports_[next_off_ - 1], off_ports_[next_off_]);
  }
  void compare(const DirectedHop& a, const DirectedHop& b) {
    if (a.sw == b.sw && a.from == b.from && b.start + tol_ < a.end)
      out_.push_back(fmt::format("{} and {} send at once on {} ([{}, {}] s and [{}, {}] s)",
                                 describe_task(w_, task(a)), describe_task(w_, task(b)),
                                 describe_port(f_, a.from, a.sw, true), to_seconds(a.start),
                                 to_seconds(a.end), to_seconds(b.start), to_seconds(b.end)));
  }
  [[nodiscard]] int task(const DirectedHop& u) const {
    return static_cast<int>(hops_.task_of(u.hop));
  }

  const HopLists& hops_;
  std::span<const Hop> all_;
  const workload::Workload& w_;
  const Fabric& f_;
  Time tol_;
  std::vector<std::string>& out_;
  BucketFiling filed_;  // hop numbers by port (OCS, GPU), each port's in array order
  std::vector<DirectedHop> off_ports_;  // hops on no port of the fabric
  std::size_t next_off_ = 0;
};

// Each hop lies inside a circuit joining its ends on its OCS, checked port by port while the
// port's circuits are at hand (for_each_port sorts one port at a time): the hops the port sends,
// filed by DirectionCheck, are gathered once and sorted by (start, end, number), and a walk
// through the port's circuits in time order finds each hop's circuit. The uncovered hops wait,
// by number, to be reported in the order of the hops. The same sorted hops show whether two of
// them overlap: DirectionCheck then reports them (reading them again), which a valid schedule
// never needs.
class CircuitCoverage {
 public:
  CircuitCoverage(const HopLists& hops, const DirectionCheck& by_port, const Fabric& f, Time tol)
      : all_(hops.all()),
        by_port_(by_port),
        f_(f),
        tol_(tol),
        seen_(static_cast<std::size_t>(f.ocs) * static_cast<std::size_t>(f.gpus), 0) {}

  // One port's uses, sorted by key(): if it is a TX port of the fabric, the hops it sends.
  void check(std::span<const PortUse> uses) {
    if (uses.empty()) return;
    const PortUse& u = uses.front();
    if (!u.tx || u.sw < 0 || u.sw >= f_.ocs || u.gpu < 0 || u.gpu >= f_.gpus) return;
    const std::size_t p = static_cast<std::size_t>(u.sw) * static_cast<std::size_t>(f_.gpus) +
                          static_cast<std::size_t>(u.gpu);
    seen_[p] = 1;
    check_hops(p, uses);
  }
  // After every port's uses: the hops of ports without any circuit have none.
  void finish() {
    for (std::size_t p = 0; p < seen_.size(); ++p)
      if (!seen_[p]) check_hops(p, {});
    std::sort(uncovered_.begin(), uncovered_.end());
  }
  // Whether two hops of one port overlap (DirectionCheck::run reports them).
  [[nodiscard]] bool saw_overlap() const { return overlap_; }
  // Hop number `k` of `task` (in increasing k, after finish()), if no circuit covers it.
  void report(std::size_t k, int task, const workload::Workload& w, std::vector<std::string>& out) {
    if (next_ == uncovered_.size() || uncovered_[next_] != k) return;
    ++next_;
    const Hop& h = all_[k];
    out.push_back(fmt::format("{}: no circuit from gpu {} to gpu {} on {} covers [{}, {}] s",
                              describe_task(w, task), h.from, h.to,
                              describe_port(f_, h.from, h.sw, true), to_seconds(h.start),
                              to_seconds(h.end)));
  }

 private:
  struct Sent {
    Time start, end;
    std::uint32_t hop;
    int to;  // -1: malformed (check_hop reports it)
    auto time_key() const { return std::tie(start, end, hop); }
  };

  void check_hops(std::size_t port, std::span<const PortUse> uses) {
    std::vector<Sent>& sent = sent_;
    sent.clear();
    for_each_prefetched(
        by_port_.hops_from(port), [&](std::uint32_t k) { return &all_[k]; },
        [&](std::uint32_t k) {
          const Hop& h = all_[k];
          sent.push_back({h.start, h.end, k, malformed(h, f_) ? -1 : h.to});
        });
    sort_by_time_key(sent);
    std::size_t came_up = 0;  // the port's circuits up by the hop's start (within tol)
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const Sent& s = sent[i];
      if (i > 0 && s.start + tol_ < sent[i - 1].end) overlap_ = true;
      if (s.to < 0) continue;
      while (came_up < uses.size() && uses[came_up].up <= s.start + tol_) ++came_up;
      // Its circuit is the last of them, if that one is still up at the hop's end.
      const bool covered = came_up > 0 && uses[came_up - 1].down + tol_ >= s.end &&
                           uses[came_up - 1].partner == s.to;
      if (!covered) uncovered_.push_back(s.hop);
    }
  }

  std::span<const Hop> all_;
  const DirectionCheck& by_port_;
  const Fabric& f_;
  Time tol_;
  std::vector<char> seen_;  // [sw · gpus + gpu] its TX uses were checked
  std::vector<Sent> sent_;  // check_hops' scratch: one port's hops
  std::vector<std::uint32_t> uncovered_;
  std::size_t next_ = 0;  // the next of uncovered_ to report
  bool overlap_ = false;
};

bool bytes_equal(double a, double b) {
  return std::abs(a - b) <= 1e-6 * std::max(1.0, b);
}

// Bytes leave src and arrive at dst in full; an intermediate forwards only what it already got.
void check_flow(std::span<const Hop> hops, int task, const workload::Workload& w,
                std::vector<std::string>& out) {
  const workload::Task& t = w.tasks[static_cast<std::size_t>(task)];
  if (hops.empty()) {  // even a zero-byte send needs its circuit
    out.push_back(fmt::format("{}: no hop carries it", describe_task(w, task)));
    return;
  }
  double sent = 0, delivered = 0;
  for (const Hop& h : hops) {
    if (h.from == t.src) sent += h.bytes;
    if (h.to == t.dst) delivered += h.bytes;
    if (h.from == t.src || h.from == t.dst) continue;
    double received = 0, forwarded = 0;
    for (const Hop& g : hops) {
      if (g.to == h.from && g.end <= h.start) received += g.bytes;
      if (g.from == h.from && g.start <= h.start) forwarded += g.bytes;
    }
    if (forwarded > received + 1e-6 * std::max(1.0, t.bytes))
      out.push_back(fmt::format("{}: gpu {} forwards bytes at {} s before it received them",
                                describe_task(w, task), h.from, to_seconds(h.start)));
  }
  if (!bytes_equal(sent, t.bytes) || !bytes_equal(delivered, t.bytes))
    out.push_back(fmt::format("{}: {} bytes leave gpu {} and {} arrive at gpu {}, expected {}",
                              describe_task(w, task), sent, t.src, delivered, t.dst, t.bytes));
}

}  // namespace

Time time_tolerance(Time iteration_time, const Fabric& f) {
  double scale = std::max(to_seconds(iteration_time), f.reconfig_delay);
  return std::max<Time>(2, to_time(1e-9 * scale));
}

std::int64_t count_reconfigurations(const std::vector<TimedCircuit>& circuits, const Fabric& f) {
  std::int64_t count = 0;
  for_each_port(circuits, f,
                [&](std::span<const PortUse> port) { count += count_changes(port, f); });
  return count;
}

std::string describe_port(const Fabric& f, int gpu, int sw, bool tx) {
  const char* side = f.circuit == CircuitKind::duplex ? "" : (tx ? "TX " : "RX ");
  return fmt::format("{}port (gpu {}, ocs {})", side, gpu, sw);
}

std::vector<std::string> check_schedule(const TimedSchedule& s, const workload::Workload& w,
                                        const Fabric& f, Time tol, std::int64_t* reconfigurations) {
  std::vector<std::string> out;
  const std::size_t tasks = std::min(w.tasks.size(), s.hops.size());
  DirectionCheck directions(s.hops, w, f, tol, out);
  directions.file(tasks);
  CircuitCoverage coverage(s.hops, directions, f, tol);
  std::int64_t changes = 0;
  for_each_port(s.circuits, f, [&](std::span<const PortUse> port) {
    check_ports(port, f, tol, out);
    coverage.check(port);
    changes += count_changes(port, f);
  });
  if (reconfigurations != nullptr) *reconfigurations = changes;
  coverage.finish();
  const LinkTiming lt(f);
  const std::span<const Hop> all = s.hops.all();
  for (std::size_t t = 0; t < tasks; ++t) {
    if (w.tasks[t].kind != workload::TaskKind::send) continue;
    const std::span<const Hop> hops = s.hops[t];
    const auto first = static_cast<std::size_t>(hops.data() - all.data());
    for (std::size_t k = 0; k < hops.size(); ++k) {
      check_hop(hops[k], static_cast<int>(t), w, f, lt, tol, out);
      coverage.report(first + k, static_cast<int>(t), w, out);
    }
    check_flow(hops, static_cast<int>(t), w, out);
  }
  if (coverage.saw_overlap() || directions.has_off_port_hops()) directions.run();
  return out;
}

}  // namespace flux::fabric
