#include "fabric_baselines/bvn_frame.hpp"

#include "core/error.hpp"
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
  RepeatedFrame source(std::move(frame));
  return run_dispatch(w, f, source, {.progress = opt.progress, .outputs = opt.outputs},
                      opt.frame > 0 ? "bvn-periodic" : "bvn");
}

}  // namespace flux::fabric_baselines
