#include "report_html/critical_path.hpp"

#include <algorithm>
#include <cmath>

namespace flux::report_html {
namespace {

// Times in the CSV files carry about ten significant digits.
double slack(double t) {
  return 1e-9 + 1e-9 * std::fabs(t);
}

// Activities of one kind on each GPU, by end time.
struct ByEnd {
  std::vector<std::vector<std::pair<double, std::size_t>>> gpu;
  explicit ByEnd(int gpus) : gpu(static_cast<std::size_t>(gpus)) {}
  void add(int g, double end, std::size_t i) {
    gpu[static_cast<std::size_t>(g)].push_back({end, i});
  }
  void sort() {
    for (auto& v : gpu) std::sort(v.begin(), v.end());
  }
  // The latest-ending activity on `g` that ended by `t` and is not visited; nullptr if none.
  const std::pair<double, std::size_t>* latest(int g, double t,
                                               const std::vector<char>& visited) const {
    const auto& v = gpu[static_cast<std::size_t>(g)];
    auto it =
        std::upper_bound(v.begin(), v.end(), std::pair{t + slack(t), static_cast<std::size_t>(-1)});
    while (it != v.begin()) {
      --it;
      if (!visited[it->second]) return &*it;
    }
    return nullptr;
  }
};

}  // namespace

CriticalPath trace_critical_path(const std::vector<ComputeSlice>& compute,
                                 const std::vector<FlowRow>& flows, int gpus) {
  CriticalPath path;
  if (gpus <= 0 || (compute.empty() && flows.empty())) return path;
  ByEnd slices(gpus), arrivals(gpus);
  for (std::size_t i = 0; i < compute.size(); ++i) slices.add(compute[i].gpu, compute[i].end, i);
  for (std::size_t i = 0; i < flows.size(); ++i) arrivals.add(flows[i].dst, flows[i].finish, i);
  slices.sort();
  arrivals.sort();
  std::vector<char> seen_c(compute.size(), 0), seen_f(flows.size(), 0);

  // The activity that ends last.
  bool is_flow = false;
  std::size_t at = 0;
  double last = -1;
  for (std::size_t i = 0; i < compute.size(); ++i)
    if (compute[i].end > last) last = compute[i].end, at = i, is_flow = false;
  for (std::size_t i = 0; i < flows.size(); ++i)
    if (flows[i].finish > last) last = flows[i].finish, at = i, is_flow = true;

  for (;;) {
    (is_flow ? seen_f : seen_c)[at] = 1;
    (is_flow ? path.flows : path.compute).push_back(at);
    // When the current activity could have started, and on which GPU its inputs came in.
    const int g = is_flow ? flows[at].src : compute[at].gpu;
    const double t = is_flow ? flows[at].ready : compute[at].start;
    if (t <= slack(0)) break;
    const auto* c = slices.latest(g, t, seen_c);
    const auto* f = arrivals.latest(g, t, seen_f);
    if (!c && !f) break;
    // A message that arrived at the same moment as the previous slice ended is the one the task
    // waited for when it started late; ties go to the message.
    is_flow = f && (!c || f->first >= c->first - slack(t));
    at = is_flow ? f->second : c->second;
  }
  std::reverse(path.compute.begin(), path.compute.end());
  std::reverse(path.flows.begin(), path.flows.end());
  return path;
}

}  // namespace flux::report_html
