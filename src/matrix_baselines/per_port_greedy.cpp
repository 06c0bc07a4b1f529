#include "matrix_baselines/per_port_greedy.hpp"

#include <algorithm>

#include "matching/assignment.hpp"
#include "matrix_baselines/baseline.hpp"
#include "matrix_baselines/schedule_helpers.hpp"

namespace flux::matrix_baselines {
namespace {

class PortGreedy {
 public:
  PortGreedy(const Matrix& m, int sw, double delta, std::vector<matrix::PortCircuit>& out)
      : rem_(m),
        sw_(sw),
        delta_(delta),
        out_(out),
        in_ready_(static_cast<std::size_t>(m.n()), delta),
        out_ready_(static_cast<std::size_t>(m.n()), delta),
        row_left_(static_cast<std::size_t>(m.n()), 0),
        col_left_(static_cast<std::size_t>(m.n()), 0) {
    for (int i = 0; i < m.n(); ++i)
      for (int j = 0; j < m.n(); ++j)
        if (m(i, j) > 0.0) ++row_left_[idx(i)], ++col_left_[idx(j)], ++left_;
  }

  double run() {
    if (left_ == 0) return 0.0;
    double t = delta_;
    pair_free_ports(t);
    while (left_ > 0) {
      t = next_ready(t);
      pair_free_ports(t);
    }
    return last_end_;
  }

 private:
  static std::size_t idx(int k) { return static_cast<std::size_t>(k); }

  void start(int i, int j, double t) {
    const double end = t + rem_(i, j);
    out_.push_back({.sw = sw_, .src = i, .dst = j, .start = t, .end = end});
    in_ready_[idx(i)] = out_ready_[idx(j)] = end + delta_;
    last_end_ = std::max(last_end_, end);
    rem_(i, j) = 0.0;
    --row_left_[idx(i)], --col_left_[idx(j)], --left_;
  }

  // Every remaining entry has a busy end after an event (else it would have been paired), so a
  // port with demand becomes ready strictly later than t.
  double next_ready(double t) const {
    double next = 0.0;
    bool found = false;
    for (int k = 0; k < rem_.n(); ++k) {
      for (double r : {row_left_[idx(k)] > 0 ? in_ready_[idx(k)] : t,
                       col_left_[idx(k)] > 0 ? out_ready_[idx(k)] : t})
        if (r > t && (!found || r < next)) next = r, found = true;
    }
    return next;
  }

  // Pairs the ready inputs with the ready outputs they have demand for: a matching with the most
  // circuits, the heaviest among those. A largest-entry-first greedy pairing is only maximal: on
  // an all-to-all, where every port frees at the same instant, it strands ports whose remaining
  // partners were already taken, they idle for a whole circuit, and the schedule needs more
  // rounds than the all-stop one it was built from (n = 16: 1.47x the bound).
  void pair_free_ports(double t) {
    std::vector<int> ins, outs;
    for (int k = 0; k < rem_.n(); ++k) {
      if (row_left_[idx(k)] > 0 && in_ready_[idx(k)] <= t) ins.push_back(k);
      if (col_left_[idx(k)] > 0 && out_ready_[idx(k)] <= t) outs.push_back(k);
    }
    if (ins.empty() || outs.empty()) return;
    const int size = static_cast<int>(std::max(ins.size(), outs.size()));
    double top = 0.0;
    for (int i : ins)
      for (int j : outs) top = std::max(top, rem_(i, j));
    if (top <= 0.0) return;
    // Edge weight size + 1 + rem / top: one more circuit (> size + 1) always outweighs heavier
    // entries (each adds < 1), so the assignment maximises the count first. Padding costs 0.
    Matrix cost(size);
    for (std::size_t a = 0; a < ins.size(); ++a)
      for (std::size_t b = 0; b < outs.size(); ++b)
        if (const double r = rem_(ins[a], outs[b]); r > 0.0)
          cost(static_cast<int>(a), static_cast<int>(b)) = -(size + 1.0 + r / top);
    const matching::Assignment match = matching::min_cost_assignment(cost);
    for (std::size_t a = 0; a < ins.size(); ++a) {
      const auto b = static_cast<std::size_t>(match.row_to_col[a]);
      if (b < outs.size() && rem_(ins[a], outs[b]) > 0.0) start(ins[a], outs[b], t);
    }
  }

  Matrix rem_;
  int sw_;
  double delta_;
  std::vector<matrix::PortCircuit>& out_;
  std::vector<double> in_ready_, out_ready_;
  std::vector<int> row_left_, col_left_;
  long long left_ = 0;
  double last_end_ = 0.0;
};

}  // namespace

double per_port_greedy(const Matrix& m, int sw, double delta,
                       std::vector<matrix::PortCircuit>& out) {
  return PortGreedy(m, sw, delta, out).run();
}

std::vector<Matrix> per_switch_load(const Matrix& d, const matrix::MatrixSchedule& plan) {
  std::vector<Matrix> load(static_cast<std::size_t>(plan.switches), Matrix(d.n()));
  for (const matrix::Slot& s : plan.slots)
    for (int i = 0; i < d.n(); ++i) {
      const int j = s.perm[static_cast<std::size_t>(i)];
      if (j >= 0 && d(i, j) > 0.0) load[static_cast<std::size_t>(s.sw)](i, j) += s.end - s.start;
    }
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) {
      double total = 0.0;
      for (const Matrix& m : load) total += m(i, j);
      if (total <= 0.0) continue;
      for (Matrix& m : load) m(i, j) *= d(i, j) / total;
    }
  return load;
}

namespace {

// The all-stop plan as a per-port schedule: each slot's demanded circuits held for the slot.
// Ports change partner only between slots, which are at least δ apart, so this is a valid per-port
// schedule with the all-stop makespan.
matrix::MatrixSchedule as_port_circuits(const matrix::MatrixSchedule& plan, const Matrix& d) {
  matrix::MatrixSchedule s;
  s.reconfiguration = matrix::Reconfiguration::per_port;
  for (const matrix::Slot& slot : plan.slots)
    for (int i = 0; i < d.n(); ++i) {
      const int j = slot.perm[static_cast<std::size_t>(i)];
      if (j >= 0 && d(i, j) > 0.0)
        s.circuits.push_back(
            {.sw = slot.sw, .src = i, .dst = j, .start = slot.start, .end = slot.end});
    }
  return s;
}

}  // namespace

matrix::MatrixResult per_port_result(const std::string& name, const matrix::MatrixProblem& p,
                                     const matrix::MatrixResult& start,
                                     const std::vector<Matrix>& loads) {
  matrix::MatrixSchedule s;
  s.reconfiguration = matrix::Reconfiguration::per_port;
  for (std::size_t k = 0; k < loads.size(); ++k)
    (void)per_port_greedy(loads[k], static_cast<int>(k), p.delta, s.circuits);
  matrix::MatrixResult greedy = make_result(name, p, std::move(s), start.permutations);
  if (greedy.schedule.makespan <= start.schedule.makespan) return greedy;
  return make_result(name, p, as_port_circuits(start.schedule, p.time), start.permutations);
}

matrix::MatrixResult per_port_baseline(const matrix::MatrixProblem& p,
                                       const matrix::MatrixRunOptions& opt,
                                       const PartDecomposer& decomposer) {
  const std::vector<Matrix> parts = baseline_parts(p, opt);
  matrix::MatrixResult start = play_parts(parts, p, decomposer);
  start.permutations = 0;
  return per_port_result("baseline-per-port", p, start, parts);
}

}  // namespace flux::matrix_baselines
