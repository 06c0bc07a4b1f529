#include "fabric_baselines/bvn_frame.hpp"

#include "core/error.hpp"
#include "fabric/run_budget.hpp"
#include "fabric_baselines/matrix_frame.hpp"
#include "fabric_baselines/traffic.hpp"

namespace flux::fabric_baselines {

namespace {

// Window k of OCS sw is window k mod L of the frame, k / L frames later.
class RepeatedFrame final : public WindowSource {
 public:
  explicit RepeatedFrame(Frame frame) : frame_(std::move(frame)), next_(frame_.windows.size(), 0) {}

  std::optional<Window> next(int sw, fabric::Time) override {
    const std::vector<Window>& ws = frame_.windows[static_cast<std::size_t>(sw)];
    if (ws.empty()) return std::nullopt;
    const std::int64_t k = next_[static_cast<std::size_t>(sw)]++;
    const std::int64_t size = static_cast<std::int64_t>(ws.size());
    Window w = ws[static_cast<std::size_t>(k % size)];
    const fabric::Time shift = (k / size) * frame_.length;
    w.up += shift;
    w.end += shift;
    return w;
  }

 private:
  Frame frame_;
  std::vector<std::int64_t> next_;
};

}  // namespace

fabric::ScheduleRun schedule_bvn(const workload::Workload& w, const fabric::Fabric& f,
                                 const fabric::SchedulerOptions& opt) {
  if (opt.frame < 0) throw InputError("", "frame", "a frame length >= 0 (0 = one-shot)");
  Frame frame = plan_frame(circuit_demand(w), f, "bvn", "scheduler");
  if (opt.frame > 0) frame = stretch_frame(frame, fabric::to_time(opt.frame), f);
  const auto play = [&](bool used_circuits_only) {
    RepeatedFrame source(frame);
    return run_dispatch(w, f, source,
                        {.used_circuits_only = used_circuits_only,
                         .progress = opt.progress,
                         .outputs = opt.outputs},
                        opt.frame > 0 ? "bvn-periodic" : "bvn");
  };
  try {
    return play(false);
  } catch (const fabric::CircuitRecordsOverBudget&) {
    // The frame repeats over the whole iteration, a record for every circuit of every window
    // whether it carries bytes or not: past the cap, the run starts again and lists only the
    // circuits that carried a hop, as rotornet always does. What is sent, and when, is the same.
  }
  fabric::ScheduleRun run = play(true);
  run.schedule.used_circuits_only = true;
  return run;
}

}  // namespace flux::fabric_baselines
