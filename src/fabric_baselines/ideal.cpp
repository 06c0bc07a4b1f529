#include "fabric_baselines/ideal.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>

namespace flux {

namespace {

struct Flow {
  int task;
  double remaining;
  double rate = 0.0;  // bytes per ps
  Time since = 0;     // start of the current constant-rate piece
};

class IdealTransport final : public Transport {
 public:
  explicit IdealTransport(const Fabric& f)
      : cap_(f.ocs * f.link_rate / kPsPerSecond), alpha_(to_time(f.latency)), gpus_(f.gpus) {}

  void on_ready(Engine& e, int task) override {
    advance(e);
    const Task& t = e.workload().tasks[static_cast<std::size_t>(task)];
    flows_.push_back({task, t.bytes, 0.0, e.now()});
    settle(e);
  }
  void on_timer(Engine& e, std::int64_t tag) override {
    if (tag != generation_) return;  // rates changed since this timer was set
    advance(e);
    settle(e);
  }

 private:
  // Moves every flow to now, recording the piece it carried at its last rate.
  void advance(Engine& e) {
    for (Flow& fl : flows_) {
      const Time dt = e.now() - fl.since;
      if (dt > 0 && fl.rate > 0) {
        const Task& t = e.workload().tasks[static_cast<std::size_t>(fl.task)];
        double bytes = std::min(fl.remaining, fl.rate * static_cast<double>(dt));
        e.add_hop(fl.task, {kElectrical, t.src, t.dst, fl.since, e.now(), bytes});
        fl.remaining -= bytes;
      }
      fl.since = e.now();
    }
  }

  // Completes drained flows, recomputes the fair rates and sets the next completion timer.
  void settle(Engine& e) {
    std::erase_if(flows_, [&](const Flow& fl) {
      const double size = e.workload().tasks[static_cast<std::size_t>(fl.task)].bytes;
      if (fl.remaining > 1e-9 * std::max(1.0, size)) return false;
      e.complete_send(fl.task, e.now() + alpha_);
      return true;
    });
    fair_rates(e.workload());
    Time next = kNever;
    for (const Flow& fl : flows_)
      next = std::min(next, e.now() + static_cast<Time>(std::ceil(fl.remaining / fl.rate)));
    ++generation_;
    if (next != kNever) e.set_timer(next, generation_);
  }

  // Progressive filling: raise all unfrozen rates together; the link whose fair share is lowest
  // fills first and freezes its flows. Freezing only raises the other links' shares, so a heap of
  // shares (stale entries skipped by version) visits links in filling order: O((F + R) log R).
  void fair_rates(const Workload& w) {
    std::vector<std::vector<std::size_t>> on_link(2 * static_cast<std::size_t>(gpus_));
    std::vector<std::size_t> touched;
    for (std::size_t i = 0; i < flows_.size(); ++i) {
      const Task& t = w.tasks[static_cast<std::size_t>(flows_[i].task)];
      for (std::size_t l :
           {static_cast<std::size_t>(t.src), static_cast<std::size_t>(gpus_ + t.dst)}) {
        if (on_link[l].empty()) touched.push_back(l);
        on_link[l].push_back(i);
      }
      flows_[i].rate = -1;  // not frozen yet
    }
    std::vector<double> left(on_link.size(), cap_);
    std::vector<int> users(on_link.size(), 0), version(on_link.size(), 0);
    using Entry = std::tuple<double, std::size_t, int>;  // share, link, version
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (std::size_t l : touched) {
      users[l] = static_cast<int>(on_link[l].size());
      heap.emplace(left[l] / users[l], l, 0);
    }
    while (!heap.empty()) {
      auto [share, l, v] = heap.top();
      heap.pop();
      if (v != version[l] || users[l] == 0) continue;
      for (std::size_t i : on_link[l]) {
        if (flows_[i].rate >= 0) continue;
        flows_[i].rate = share;
        const Task& t = w.tasks[static_cast<std::size_t>(flows_[i].task)];
        for (std::size_t o :
             {static_cast<std::size_t>(t.src), static_cast<std::size_t>(gpus_ + t.dst)}) {
          left[o] -= share;
          if (--users[o] > 0 && o != l) heap.emplace(left[o] / users[o], o, ++version[o]);
        }
      }
    }
  }

  double cap_;
  Time alpha_;
  int gpus_;
  std::vector<Flow> flows_;
  std::int64_t generation_ = 0;
};

}  // namespace

ScheduleRun schedule_ideal(const Workload& w, const Fabric& f, Progress& progress) {
  IdealTransport transport(f);
  Engine engine(w, transport);
  return run_scheduler(engine, "ideal", progress);
}

}  // namespace flux
