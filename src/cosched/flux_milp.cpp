#include "cosched/flux_milp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "cosched/port_book.hpp"

namespace flux::cosched {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Start of every task whose message ancestors are all placed (others +inf).
std::vector<double> partial_starts(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  std::vector<double> start(inst.workload.tasks.size(), kInf);
  for (int v : inst.topo) {
    double ready = 0.0;
    for (int p : inst.workload.tasks[v].after) ready = std::max(ready, start[p] + inst.duration[p]);
    const int m = inst.message_of[v];
    start[v] = m < 0 ? ready : (pl[m].sw >= 0 && std::isfinite(ready) ? pl[m].start : kInf);
  }
  return start;
}

struct Builder {
  const CoschedInstance& inst;
  const std::vector<char>& window;
  const std::vector<Placement>& placed;
  const FluxMilpOptions& options;
  FluxModel out;
  std::vector<double> lb, ub, p;  // per task, model units
  double h_reuse = 0.0, tau = 0.0, eps = 0.0;

  int x(int m, int s) const { return out.x_col[m][s]; }

  // Which tasks the window decides, their frontier, and the scale.
  void select_tasks(const std::vector<char>& fixed, const std::vector<double>& start) {
    const auto& tasks = inst.workload.tasks;
    std::vector<char> det(tasks.size(), 0), in(tasks.size(), 0);
    for (int v : inst.topo) {
      const int m = inst.message_of[v];
      bool all_det = m < 0 || fixed[m], all_known = true;
      for (int q : tasks[v].after) {
        all_det = all_det && det[q];
        all_known = all_known && (det[q] || in[q]);
      }
      det[v] = all_det;
      in[v] = !all_det && all_known && (m < 0 || window[m]);
    }
    out.t_col.assign(tasks.size(), -1);
    double ubound = 0.0;
    for (int v : inst.topo) {
      if (!in[v]) continue;
      out.t_col[v] = 0;  // placeholder: marks membership until columns exist
      const bool frontier =
          inst.succ[v].empty() || std::any_of(inst.succ[v].begin(), inst.succ[v].end(), [&](int s) {
            return !in[s] || (inst.message_of[s] >= 0 && !window[inst.message_of[s]]);
          });
      if (frontier) out.frontier.push_back(v);
      if (frontier) ubound = std::max(ubound, start[v] + inst.duration[v] + inst.tail[v]);
    }
    out.time_unit = ubound > 0.0 ? ubound / 1000.0 : 1.0;
    const double u = out.time_unit;
    lb.assign(tasks.size(), 0.0);
    ub.assign(tasks.size(), 0.0);
    p.resize(tasks.size());
    for (std::size_t v = 0; v < tasks.size(); ++v) p[v] = inst.duration[v] / u;
    std::vector<double> known_end(tasks.size(), 0.0);
    for (int v : inst.topo) {
      if (det[v]) known_end[v] = (start[v] + inst.duration[v]) / u;
      if (out.t_col[v] < 0) continue;
      for (int q : tasks[v].after) lb[v] = std::max(lb[v], det[q] ? known_end[q] : lb[q] + p[q]);
      ub[v] = options.prune ? 1000.0 - p[v] - inst.tail[v] / u : 1000.0;
      ub[v] = std::max(ub[v], start[v] / u) + 1e-7;  // the warm start stays inside
    }
    tau = inst.fabric.reconfig_delay / u;
    h_reuse = options.forbid_reuse ? tau : 0.0;
    eps = 1e-9;
  }

  void add_columns() {
    auto& milp = out.milp;
    out.c_col = milp.add_column("C", 0.0, 1000.0 + 1e-6, 1.0, false);
    for (int v : inst.topo)
      if (out.t_col[v] >= 0)
        out.t_col[v] = milp.add_column(fmt::format("t{}", v), lb[v], ub[v], 0.0, false);
    out.x_col.assign(inst.message_count(), {});
    for (int v : inst.topo) {
      const int m = inst.message_of[v];
      if (m < 0 || !window[m]) continue;
      ++out.stats.messages;
      milp.cost[out.t_col[v]] = options.start_weight;
      for (int s = 0; s < inst.fabric.ocs; ++s)
        out.x_col[m].push_back(milp.add_column(fmt::format("x{}_{}", m, s), 0.0, 1.0, 0.0, true));
      milp.add_row(fmt::format("assign{}", m), out.x_col[m],
                   std::vector<double>(inst.fabric.ocs, 1.0), '=', 1.0);
    }
  }

  void add_precedence_and_makespan() {
    auto& milp = out.milp;
    for (int v : inst.topo) {
      if (out.t_col[v] < 0) continue;
      ++out.stats.tasks;
      for (int q : inst.workload.tasks[v].after)
        if (out.t_col[q] >= 0)
          milp.add_row(fmt::format("prec{}_{}", q, v), {out.t_col[v], out.t_col[q]}, {1.0, -1.0},
                       '>', p[q]);
    }
    for (int v : out.frontier)
      milp.add_row(fmt::format("cmax{}", v), {out.c_col, out.t_col[v]}, {1.0, -1.0}, '>',
                   p[v] + inst.tail[v] / out.time_unit);
  }

  // Port state left by the fixed messages: a message on OCS s starts no earlier than e_{m,s}.
  void add_port_boundary(const std::vector<char>& fixed) {
    PortBook book(inst.fabric);
    for (int m : start_order(inst, placed))
      if (fixed[m]) {
        const workload::Task& t = inst.message_task(m);
        book.place(placed[m].sw, t.src, t.dst, placed[m].start + inst.duration[inst.messages[m]]);
      }
    for (int m = 0; m < inst.message_count(); ++m) {
      if (out.x_col[m].empty()) continue;
      const workload::Task& t = inst.message_task(m);
      const int tc = out.t_col[inst.messages[m]];
      for (int s = 0; s < inst.fabric.ocs; ++s) {
        const double e = book.earliest(s, t.src, t.dst, 0.0) / out.time_unit;
        auto& col_ub = out.milp.upper[x(m, s)];
        if (e > ub[inst.messages[m]] + eps) col_ub = 0.0;  // cannot start there in time
        if (e <= lb[inst.messages[m]] + eps || col_ub == 0.0) continue;
        const double need = e - lb[inst.messages[m]];
        out.milp.add_row(fmt::format("port{}_{}", m, s), {tc, x(m, s)}, {1.0, -need}, '>',
                         lb[inst.messages[m]]);
      }
    }
  }

  void add_symmetry_breaking(bool fresh) {
    if (!options.symmetry_breaking || !fresh || inst.fabric.ocs < 2) return;
    for (int v : inst.topo)
      if (const int m = inst.message_of[v]; m >= 0 && window[m] && out.x_col[m].size())
        if (out.symmetry_order.size() < 16) out.symmetry_order.push_back(m);
    const auto& order = out.symmetry_order;
    for (std::size_t k = 0; k < order.size(); ++k)
      for (int s = 1; s < inst.fabric.ocs; ++s) {
        std::vector<int> cols{x(order[k], s)};
        std::vector<double> coefs{1.0};
        for (std::size_t j = 0; j < k; ++j) {
          cols.push_back(x(order[j], s - 1));
          coefs.push_back(-1.0);
        }
        out.milp.add_row(fmt::format("sym{}_{}", order[k], s), cols, coefs, '<', 0.0);
      }
  }

  void ordered_rows(int a, int b, double h) {
    const int ta = out.t_col[inst.messages[a]], tb = out.t_col[inst.messages[b]];
    const int va = inst.messages[a], vb = inst.messages[b];
    const double big = ub[va] + p[va] + h - lb[vb];
    for (int s = 0; s < inst.fabric.ocs; ++s)
      out.milp.add_row(fmt::format("gap{}_{}_{}", a, b, s), {tb, ta, x(a, s), x(b, s)},
                       {1.0, -1.0, -big, -big}, '>', p[va] + h - 2 * big);
    ++out.stats.pairs_ordered;
  }

  void free_rows(int a, int b, double h) {
    const int va = inst.messages[a], vb = inst.messages[b];
    const int ta = out.t_col[va], tb = out.t_col[vb];
    const int z = out.milp.add_column(fmt::format("z{}_{}", a, b), 0.0, 1.0, 0.0, true);
    out.z.push_back({z, a, b});
    const double mab = ub[va] + p[va] + h - lb[vb], mba = ub[vb] + p[vb] + h - lb[va];
    for (int s = 0; s < inst.fabric.ocs; ++s) {
      out.milp.add_row(fmt::format("ab{}_{}_{}", a, b, s), {tb, ta, z, x(a, s), x(b, s)},
                       {1.0, -1.0, -mab, -mab, -mab}, '>', p[va] + h - 3 * mab);
      out.milp.add_row(fmt::format("ba{}_{}_{}", a, b, s), {ta, tb, z, x(a, s), x(b, s)},
                       {1.0, -1.0, mba, -mba, -mba}, '>', p[vb] + h - 2 * mba);
    }
    ++out.stats.pairs_free;
  }

  void add_pair(const ConflictPair& c) {
    const int a = c.first, b = c.second, va = inst.messages[a], vb = inst.messages[b];
    const double h = c.same_circuit ? h_reuse : tau;
    const bool ab_always = ub[va] + p[va] + h <= lb[vb] + eps;
    const bool ba_always = ub[vb] + p[vb] + h <= lb[va] + eps;
    const bool ab_possible = lb[va] + p[va] + h <= ub[vb] + eps;
    const bool ba_possible = !c.ordered && lb[vb] + p[vb] + h <= ub[va] + eps;
    if (options.prune && (ab_always || (!c.ordered && ba_always))) {
      ++out.stats.pairs_pruned;
    } else if (options.prune && !ab_possible && !ba_possible) {
      for (int s = 0; s < inst.fabric.ocs; ++s)
        out.milp.add_row(fmt::format("apart{}_{}_{}", a, b, s), {x(a, s), x(b, s)}, {1.0, 1.0}, '<',
                         1.0);
      ++out.stats.pairs_separated;
    } else if (c.ordered || (options.prune && !ba_possible)) {
      out.stats.pruned_to_ordered += c.ordered ? 0 : 1;
      ordered_rows(a, b, h);
    } else if (options.prune && !ab_possible) {
      ++out.stats.pruned_to_ordered;
      ordered_rows(b, a, h);
    } else {
      free_rows(a, b, h);
    }
  }
};

}  // namespace

FluxModel build_flux_model(const CoschedInstance& inst, const Ancestry& closure,
                           const std::vector<char>& window, const std::vector<Placement>& placed,
                           const FluxMilpOptions& options) {
  std::vector<char> fixed(inst.message_count(), 0);
  bool fresh = true;
  for (int m = 0; m < inst.message_count(); ++m) {
    fixed[m] = !window[m] && placed[m].sw >= 0;
    fresh = fresh && !fixed[m];
  }
  Builder b{inst, window, placed, options, {}, {}, {}, {}};
  b.out.milp.title = "Flux co-scheduling MILP (see docs/models.md)";
  b.select_tasks(fixed, partial_starts(inst, placed));
  b.add_columns();
  b.add_precedence_and_makespan();
  b.add_port_boundary(fixed);
  b.add_symmetry_breaking(fresh);
  for (const ConflictPair& c : analyze_conflicts(inst, closure, window).pairs) b.add_pair(c);
  return std::move(b.out);
}

std::vector<double> encode_solution(const FluxModel& model, const CoschedInstance& inst,
                                    std::vector<Placement> pl) {
  if (!model.symmetry_order.empty()) {  // relabel identical switches by first use
    std::vector<int> label(inst.fabric.ocs, -1);
    int next = 0;
    for (int m : model.symmetry_order)
      if (label[pl[m].sw] < 0) label[pl[m].sw] = next++;
    for (auto& l : label)
      if (l < 0) l = next++;
    for (int m = 0; m < inst.message_count(); ++m)
      if (!model.x_col[m].empty()) pl[m].sw = label[pl[m].sw];
  }
  const auto start = partial_starts(inst, pl);
  std::vector<double> x(model.milp.columns(), 0.0);
  for (std::size_t v = 0; v < start.size(); ++v)
    if (model.t_col[v] >= 0) x[model.t_col[v]] = start[v] / model.time_unit;
  for (int m = 0; m < inst.message_count(); ++m)
    if (!model.x_col[m].empty()) x[model.x_col[m][pl[m].sw]] = 1.0;
  for (const auto& z : model.z) {
    const double sa = start[inst.messages[z.a]], sb = start[inst.messages[z.b]];
    x[z.col] = sa < sb || (sa == sb && z.a < z.b) ? 1.0 : 0.0;
  }
  x[model.c_col] = window_objective(model, inst, pl) / model.time_unit;
  return x;
}

double window_objective(const FluxModel& model, const CoschedInstance& inst,
                        const std::vector<Placement>& pl) {
  const auto start = partial_starts(inst, pl);
  double c = 0.0;
  for (int v : model.frontier) c = std::max(c, start[v] + inst.duration[v] + inst.tail[v]);
  return c;
}

WindowDecision decode_solution(const FluxModel& model, const CoschedInstance& inst,
                               const std::vector<double>& values) {
  WindowDecision d{std::vector<int>(inst.message_count(), -1), {}};
  std::vector<std::pair<double, int>> by_start;
  int topo_pos = 0;
  for (int v : inst.topo) {
    const int m = inst.message_of[v];
    if (m < 0 || model.x_col[m].empty()) continue;
    const auto& xs = model.x_col[m];
    d.switch_of[m] =
        static_cast<int>(std::max_element(xs.begin(), xs.end(),
                                          [&](int a, int b) { return values[a] < values[b]; }) -
                         xs.begin());
    // Rounded so that solver tolerance cannot put a message before its ancestor.
    by_start.emplace_back(std::round(values[model.t_col[v]] * 1e6) / 1e6, topo_pos++);
    d.order.push_back(m);
  }
  std::vector<int> idx(d.order.size());
  for (std::size_t k = 0; k < idx.size(); ++k) idx[k] = static_cast<int>(k);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return by_start[a] < by_start[b]; });
  std::vector<int> sorted;
  for (int k : idx) sorted.push_back(d.order[k]);
  d.order = std::move(sorted);
  return d;
}

}  // namespace flux::cosched
