#include "fabric/ideal.hpp"

#include <algorithm>
#include <cmath>

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

  // Progressive filling: raise all unfrozen rates together; a link that fills freezes its flows.
  void fair_rates(const Workload& w) {
    std::vector<double> left(2 * static_cast<std::size_t>(gpus_), cap_);
    std::vector<int> users(left.size(), 0);
    auto links = [&](const Flow& fl) {
      const Task& t = w.tasks[static_cast<std::size_t>(fl.task)];
      return std::pair{static_cast<std::size_t>(t.src), static_cast<std::size_t>(gpus_ + t.dst)};
    };
    std::vector<char> frozen(flows_.size(), 0);
    for (const Flow& fl : flows_) {
      auto [a, b] = links(fl);
      ++users[a];
      ++users[b];
    }
    for (std::size_t done = 0; done < flows_.size();) {
      std::size_t tight = 0;
      double share = INFINITY;
      for (std::size_t l = 0; l < left.size(); ++l)
        if (users[l] > 0 && left[l] / users[l] < share) share = left[l] / users[l], tight = l;
      for (std::size_t i = 0; i < flows_.size(); ++i) {
        auto [a, b] = links(flows_[i]);
        if (frozen[i] || (a != tight && b != tight)) continue;
        frozen[i] = 1;
        ++done;
        flows_[i].rate = share;
        left[a] -= share;
        left[b] -= share;
        --users[a];
        --users[b];
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

ScheduleRun schedule_ideal(const Workload& w, const Fabric& f) {
  IdealTransport transport(f);
  Engine engine(w, transport);
  return run_scheduler(engine, "ideal");
}

}  // namespace flux
