#include "fabric/nic_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace flux {

namespace {

struct Change {
  Time t;
  int gpu;
  double step;   // jump of the buffered bytes
  double slope;  // change of d(bytes)/dt, bytes per ps
  double wait;   // jump of the waiting bytes
};

// Bytes leaving (sign −1) or arriving at (sign +1) `gpu` linearly over the hop.
void linear(std::vector<Change>& out, const Hop& h, int gpu, double sign) {
  if (h.end > h.start) {
    double rate = h.bytes / static_cast<double>(h.end - h.start);
    out.push_back({h.start, gpu, 0.0, sign * rate, 0.0});
    out.push_back({h.end, gpu, 0.0, -sign * rate, 0.0});
  } else {
    out.push_back({h.start, gpu, sign * h.bytes, 0.0, 0.0});
  }
}

std::vector<Change> changes(const Workload& w, const Trace& trace) {
  std::vector<Change> out;
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const Task& t = w.tasks[i];
    if (t.kind != TaskKind::send || trace.ready[i] < 0) continue;
    out.push_back({trace.ready[i], t.src, t.bytes, 0.0, t.bytes});
    for (const Hop& h : trace.hops[i]) {
      linear(out, h, h.from, -1.0);
      out.push_back({h.start, h.from, 0.0, 0.0, -h.bytes});
      if (h.to == t.dst) continue;
      linear(out, h, h.to, +1.0);
      out.push_back({h.end, h.to, 0.0, 0.0, h.bytes});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Change& a, const Change& b) {
    return std::tie(a.t, a.gpu) < std::tie(b.t, b.gpu);
  });
  return out;
}

// Per-GPU piecewise-linear state; advance() moves it to time t along its current slope.
struct Level {
  double value = 0.0, slope = 0.0, wait = 0.0;
  Time last = 0;
  void advance(Time t) {
    value += slope * static_cast<double>(t - last);
    last = t;
  }
};

double clean(double v, double scale) {
  return std::abs(v) <= 1e-9 * scale ? 0.0 : v;
}

}  // namespace

BufferStats nic_buffer(const Workload& w, const Trace& trace, Time iteration_time,
                       std::vector<BufferSample>* series) {
  const std::vector<Change> all = changes(w, trace);
  std::vector<Level> gpu(static_cast<std::size_t>(w.gpus));
  Level total;
  double integral = 0.0, scale = 1.0;
  for (const Task& t : w.tasks) scale = std::max(scale, t.bytes);
  BufferStats s;
  for (std::size_t i = 0; i < all.size();) {
    const Time t = all[i].t;
    integral += (total.value + 0.5 * total.slope * static_cast<double>(t - total.last)) *
                static_cast<double>(t - total.last);
    total.advance(t);
    s.peak_total = std::max(s.peak_total, total.value);
    for (; i < all.size() && all[i].t == t;) {
      const int g = all[i].gpu;
      Level& l = gpu[static_cast<std::size_t>(g)];
      l.advance(t);
      s.peak = std::max(s.peak, l.value);
      for (; i < all.size() && all[i].t == t && all[i].gpu == g; ++i) {
        l.value += all[i].step;
        l.slope += all[i].slope;
        l.wait += all[i].wait;
        total.value += all[i].step;
        total.slope += all[i].slope;
      }
      s.peak = std::max(s.peak, l.value);
      s.peak_waiting = std::max(s.peak_waiting, l.wait);
      if (series) series->push_back({t, g, clean(l.value, scale), clean(l.wait, scale)});
    }
    s.peak_total = std::max(s.peak_total, total.value);
  }
  if (iteration_time > 0 && w.gpus > 0)
    s.mean = integral / (static_cast<double>(iteration_time) * w.gpus);
  return s;
}

}  // namespace flux
