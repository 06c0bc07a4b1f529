#include "matrix_algorithms/per_port_greedy.hpp"

#include <algorithm>
#include <tuple>

#include "matching/assignment.hpp"
#include "matrix_algorithms/baseline.hpp"
#include "matrix_algorithms/schedule_helpers.hpp"
#include "spectra/spectra.hpp"

namespace flux {
namespace {

class PortGreedy {
 public:
  PortGreedy(const Matrix& m, int sw, double delta, std::vector<PortCircuit>& out)
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
    start_max_weight_matching(t);
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

  void start_max_weight_matching(double t) {
    const Assignment a = min_cost_assignment(rem_.scaled(-1.0));
    for (int i = 0; i < rem_.n(); ++i) {
      const int j = a.row_to_col[idx(i)];
      if (rem_(i, j) > 0.0) start(i, j, t);
    }
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

  void pair_free_ports(double t) {
    std::vector<int> ins, outs;
    for (int k = 0; k < rem_.n(); ++k) {
      if (row_left_[idx(k)] > 0 && in_ready_[idx(k)] <= t) ins.push_back(k);
      if (col_left_[idx(k)] > 0 && out_ready_[idx(k)] <= t) outs.push_back(k);
    }
    std::vector<std::tuple<double, int, int>> pairs;
    for (int i : ins)
      for (int j : outs)
        if (rem_(i, j) > 0.0) pairs.emplace_back(-rem_(i, j), i, j);
    std::sort(pairs.begin(), pairs.end());  // largest entry first, ties by (i, j)
    for (const auto& [neg, i, j] : pairs)
      if (in_ready_[idx(i)] <= t && out_ready_[idx(j)] <= t) start(i, j, t);
  }

  Matrix rem_;
  int sw_;
  double delta_;
  std::vector<PortCircuit>& out_;
  std::vector<double> in_ready_, out_ready_;
  std::vector<int> row_left_, col_left_;
  long long left_ = 0;
  double last_end_ = 0.0;
};

}  // namespace

double per_port_greedy(const Matrix& m, int sw, double delta, std::vector<PortCircuit>& out) {
  return PortGreedy(m, sw, delta, out).run();
}

std::vector<Matrix> per_switch_load(const Matrix& d, const MatrixSchedule& plan) {
  std::vector<Matrix> load(static_cast<std::size_t>(plan.switches), Matrix(d.n()));
  for (const Slot& s : plan.slots)
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

MatrixResult per_port_result(const std::string& name, const MatrixProblem& p,
                             const std::vector<Matrix>& loads, int permutations) {
  MatrixSchedule s;
  s.reconfiguration = Reconfiguration::per_port;
  for (std::size_t k = 0; k < loads.size(); ++k)
    (void)per_port_greedy(loads[k], static_cast<int>(k), p.delta, s.circuits);
  return make_result(name, p, std::move(s), permutations);
}

}  // namespace

MatrixResult per_port_spectra(const MatrixProblem& p) {
  const MatrixResult plan = spectra_reference(p);
  return per_port_result("per-port", p, per_switch_load(p.time, plan.schedule), plan.permutations);
}

MatrixResult per_port_baseline(const MatrixProblem& p, const MatrixRunOptions& opt) {
  return per_port_result("baseline-per-port", p, baseline_parts(p, opt), 0);
}

}  // namespace flux
