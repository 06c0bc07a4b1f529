#include "fabric_baselines/rotornet.hpp"

#include <fmt/format.h>

#include <utility>

#include "core/error.hpp"
#include "fabric_baselines/circuit_dispatch.hpp"
#include "fabric_baselines/rotor_cycle.hpp"

namespace flux::fabric_baselines {

namespace {

class RotorWindows final : public WindowSource {
 public:
  RotorWindows(const fabric::Fabric& f, fabric::Time slot)
      : cycle_(f.circuit == fabric::CircuitKind::duplex ? round_robin_matchings(f.gpus)
                                                        : shift_permutations(f.gpus),
               f.gpus, f.ocs, f.circuit == fabric::CircuitKind::duplex),
        slot_(slot),
        tau_(fabric::to_time(f.reconfig_delay)),
        free_start_(f.initial_config_free),
        next_slot_(static_cast<std::size_t>(f.ocs), 0) {
    for (int sw = 0; sw < f.ocs && !cycle_.empty(); ++sw)
      next_matching_.push_back(cycle_.matching_at(sw, 0));
  }

  std::optional<Window> next(int sw, fabric::Time) override {
    if (cycle_.empty()) return std::nullopt;
    const std::int64_t s = next_slot_[static_cast<std::size_t>(sw)]++;
    int& m = next_matching_[static_cast<std::size_t>(sw)];
    Window w;
    w.up = s * slot_ + (s == 0 && free_start_ ? 0 : tau_);
    w.end = (s + 1) * slot_;
    w.slot = s;
    w.matching = std::exchange(m, cycle_.following(m));
    return w;
  }

  const RotorCycle* cycle() const override { return &cycle_; }

 private:
  RotorCycle cycle_;
  fabric::Time slot_, tau_;
  bool free_start_;
  std::vector<std::int64_t> next_slot_;
  std::vector<int> next_matching_;  // [sw] the matching of next_slot_[sw]
};

}  // namespace

fabric::Time rotor_slot(const fabric::Fabric& f, const fabric::SchedulerOptions& opt) {
  if (!(opt.duty_cycle > 0 && opt.duty_cycle < 1))
    throw InputError("", "duty_cycle", fmt::format("a number in (0, 1), got {}", opt.duty_cycle));
  if (opt.slot < 0) throw InputError("", "slot", "a slot length >= 0");
  double slot = opt.slot > 0 ? opt.slot : f.reconfig_delay / (1 - opt.duty_cycle);
  if (slot <= 0)
    throw InputError("", "slot", "a positive slot length (with τ = 0 the duty cycle gives none)");
  // A slot must carry at least a byte after τ and α, or no message could ever progress.
  if ((slot - f.reconfig_delay - f.latency) * f.link_rate < 1.0)
    throw InputError("", "slot",
                     fmt::format("a slot longer than τ + α = {} s plus one byte at B, got {} s",
                                 f.reconfig_delay + f.latency, slot));
  return fabric::to_time(slot);
}

fabric::ScheduleRun schedule_rotornet(const workload::Workload& w, const fabric::Fabric& f,
                                      const fabric::SchedulerOptions& opt, bool vlb) {
  return schedule_rotornet(w, f, opt, vlb, DispatchOptions{}.dense_queue_index_bytes);
}

fabric::ScheduleRun schedule_rotornet(const workload::Workload& w, const fabric::Fabric& f,
                                      const fabric::SchedulerOptions& opt, bool vlb,
                                      std::size_t dense_index_bytes) {
  RotorWindows source(f, rotor_slot(f, opt));
  return run_dispatch(w, f, source,
                      {.relay = vlb,
                       .used_circuits_only = true,
                       .progress = opt.progress,
                       .outputs = opt.outputs,
                       .dense_queue_index_bytes = dense_index_bytes},
                      vlb ? "rotornet-vlb" : "rotornet");
}

}  // namespace flux::fabric_baselines
