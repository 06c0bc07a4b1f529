#include "fabric/workload_fit.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace flux {

namespace {

std::string task_field(std::size_t t, const char* name) {
  return fmt::format("/tasks/{}/{}", t, name);
}

void check_gpu(int g, int gpus, const std::string& file, std::size_t t, const char* name) {
  if (g < 0 || g >= gpus)
    throw InputError(
        file, task_field(t, name),
        fmt::format("a GPU in [0, {}] (the fabric has {} GPUs), got {}", gpus - 1, gpus, g));
}

void check_amount(double v, const std::string& file, std::size_t t, const char* name) {
  if (!std::isfinite(v) || v < 0)
    throw InputError(file, task_field(t, name), fmt::format("a finite number >= 0, got {}", v));
}

void check_task(const Workload& w, const Fabric& f, const std::string& file, std::size_t t) {
  const Task& task = w.tasks[t];
  if (task.kind == TaskKind::compute) {
    check_gpu(task.gpu, f.gpus, file, t, "gpu");
    check_amount(task.duration, file, t, "duration");
  } else {
    check_gpu(task.src, f.gpus, file, t, "src");
    check_gpu(task.dst, f.gpus, file, t, "dst");
    if (task.src == task.dst)
      throw InputError(file, task_field(t, "dst"),
                       fmt::format("a GPU other than src ({})", task.src));
    check_amount(task.bytes, file, t, "bytes");
  }
  for (int p : task.after)
    if (p < 0 || static_cast<std::size_t>(p) >= w.tasks.size() || static_cast<std::size_t>(p) == t)
      throw InputError(file, task_field(t, "after"),
                       fmt::format("indices of other existing tasks, got {}", p));
}

void check_acyclic(const Workload& w, const std::string& file) {
  const std::vector<int> order = topological_order(w);
  if (order.size() == w.tasks.size()) return;
  std::vector<char> placed(w.tasks.size(), 0);
  for (int t : order) placed[static_cast<std::size_t>(t)] = 1;
  for (std::size_t t = 0; t < w.tasks.size(); ++t)
    if (!placed[t])
      throw InputError(file, task_field(t, "after"),
                       fmt::format("an acyclic graph ({} is on or after a cycle)",
                                   describe_task(w, static_cast<int>(t))));
}

}  // namespace

Successors successors(const Workload& w) {
  const std::size_t n = w.tasks.size();
  Successors s;
  s.begin.assign(n + 1, 0);
  for (const Task& t : w.tasks)
    for (int p : t.after) ++s.begin[static_cast<std::size_t>(p) + 1];
  for (std::size_t i = 0; i < n; ++i) s.begin[i + 1] += s.begin[i];
  s.list.resize(static_cast<std::size_t>(s.begin[n]));
  std::vector<int> fill(s.begin.begin(), s.begin.end() - 1);
  for (std::size_t t = 0; t < n; ++t)
    for (int p : w.tasks[t].after)
      s.list[static_cast<std::size_t>(fill[p]++)] = static_cast<int>(t);
  return s;
}

// Kahn's algorithm with a stack; tasks on or after a cycle are left out.
std::vector<int> topological_order(const Workload& w) {
  const std::size_t n = w.tasks.size();
  const Successors succ = successors(w);
  std::vector<int> indegree(n, 0);
  for (std::size_t t = 0; t < n; ++t) indegree[t] = static_cast<int>(w.tasks[t].after.size());
  std::vector<int> order, stack;
  for (std::size_t t = n; t-- > 0;)
    if (indegree[t] == 0) stack.push_back(static_cast<int>(t));
  while (!stack.empty()) {
    int t = stack.back();
    stack.pop_back();
    order.push_back(t);
    for (int k = succ.begin[t]; k < succ.begin[t + 1]; ++k) {
      int s = succ.list[static_cast<std::size_t>(k)];
      if (--indegree[s] == 0) stack.push_back(s);
    }
  }
  return order;
}

std::string describe_task(const Workload& w, int task) {
  const Task& t = w.tasks[static_cast<std::size_t>(task)];
  return t.name.empty() ? fmt::format("task {}", t.id) : fmt::format("task {} ({})", t.id, t.name);
}

void check_workload_fits(const Workload& w, const Fabric& f, const std::string& workload_file) {
  if (w.gpus != f.gpus)
    throw InputError(workload_file, "/gpus",
                     fmt::format("the fabric's GPU count ({}), got {}", f.gpus, w.gpus));
  for (std::size_t t = 0; t < w.tasks.size(); ++t) check_task(w, f, workload_file, t);
  check_acyclic(w, workload_file);
}

}  // namespace flux
