#include "fabric/nic_buffer.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <utility>

#include "core/realloc_array.hpp"
#include "fabric/buffer_change.hpp"
#include "fabric/change_sort.hpp"

namespace flux::fabric {

namespace {

// The records of a run, made in passes over the tasks. A survey pass counts them and their
// times (a histogram over [0, T]); every later pass keeps those of one range of histogram buckets
// (a time window), numbered in the order made: tasks make their records in the same order in
// every pass, so a window's list sorted by (t, gpu, seq) is the matching slice of one stable sort
// of the whole list by (t, gpu). Windows bound the list's memory on the largest runs (a 12 M-send
// run makes ~100 M records). A kept record goes straight to its bucket's slice of the list (the
// survey counted each bucket's records, and the bucket is monotone in t), so sorting is sorting
// each bucket's few records: one sort of millions of records was the largest part of the metric.
// The survey also notes, per block of consecutive tasks, the buckets its records span, so a
// window's pass skips the blocks that make none of its records; within the others it skips each
// task whose records all fall outside the window (task_span, read off the trace): a rotor's
// block mixes sends that wait for many slots with short ones, and making all of such a block's
// records again doubled the records the window passes made.
class Changes {
 public:
  // The survey pass, over the tasks of `w`. The histogram has a bucket per task (a power of two
  // from 2^16 to 2^22): each bucket's records are sorted, and with 2^16 buckets the metric of the
  // 18.5 M-task iteration took about 1.6 times the CPU it takes with 2^22 (a 32 MB histogram); a
  // bucket per task rather than per four took a tenth off the metric of the 256-GPU example
  // (BM_NicBufferMetric). A small run keeps a small one.
  Changes(double horizon, const workload::Workload& w)
      : horizon_(horizon),
        buckets_(std::clamp<std::size_t>(std::bit_ceil(w.tasks.size()), std::size_t{1} << 16,
                                         std::size_t{1} << 22)),
        histogram_(buckets_, 0) {}
  // A pass that keeps the records of buckets [first, last) of `survey`, in `list`'s memory (the
  // previous window's: a fresh array for every window had its pages cleared again each time).
  Changes(const Changes& survey, std::size_t first, std::size_t last, ReallocArray<Change> list)
      : horizon_(survey.horizon_),
        buckets_(survey.buckets_),
        first_(first),
        last_(last),
        survey_(&survey),
        next_(last - first + 1, 0),
        list_(std::move(list)) {
    for (std::size_t b = first; b < last; ++b)
      next_[b - first + 1] = next_[b - first] + survey.histogram_[b];
    ends_.assign(next_.begin() + 1, next_.end());
    // Not zeroed first: every record is assigned (the survey counted them), and clearing the
    // records only to overwrite them was a tenth of the metric.
    list_.resize_for_overwrite(next_.back());
  }

  // Called before the records of the next block of tasks are made, blocks in order from 0; false
  // when this is a window's pass and none of the block's records falls in the window.
  bool enter_block(std::size_t block) {
    if (survey_ == nullptr) {
      blocks_.push_back({static_cast<std::uint32_t>(buckets_), 0});  // no bucket yet
      return true;
    }
    const Block& b = survey_->blocks_[block];
    block_inside_ = b.first_bucket >= first_ && b.last_bucket < last_;
    return reaches(b.first_bucket, b.last_bucket);
  }

  // Whether to make task i's records (after its block was entered): false when this is a
  // window's pass and they all fall outside the window. `span` gives the times [first, last]
  // they lie in (task_span).
  template <typename Span>
  bool enters_task(Span&& span) const {
    if (survey_ == nullptr || block_inside_) return true;
    const auto [first, last] = span();
    return reaches(bucket(first), bucket(last));
  }

  void add(double t, int gpu, Curve what, double by) {
    if (by == 0) return;
    if (!(t >= 0)) throw std::logic_error("nic_buffer: a change before time 0 or at NaN");
    if (seq_ >= std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("nic_buffer: 2^32 - 1 buffer changes or more");
    const auto seq = static_cast<std::uint32_t>(seq_++);
    const std::size_t b = bucket(t);
    if (!histogram_.empty()) {
      ++histogram_[b];
      Block& block = blocks_.back();
      block.first_bucket = std::min(block.first_bucket, static_cast<std::uint32_t>(b));
      block.last_bucket = std::max(block.last_bucket, static_cast<std::uint32_t>(b));
    } else if (b >= first_ && b < last_) {
      list_[next_[b - first_]++] = Change(t, by, seq, static_cast<std::uint32_t>(gpu), what);
    }
  }
  [[nodiscard]] std::size_t count() const { return seq_; }
  [[nodiscard]] const std::vector<std::uint32_t>& histogram() const { return histogram_; }
  // Calls each(records) for every kept bucket in time order, its records sorted by (t, gpu, seq)
  // just before: the order the sweep applies them in, read while the sort has them in cache.
  template <typename F>
  void for_each_sorted_bucket(F&& each) {
    // Every bucket filled as the survey counted: a pass that skipped a record (a task_span that
    // missed one) would leave records unwritten.
    if (!std::equal(ends_.begin(), ends_.end(), next_.begin()))
      throw std::logic_error("nic_buffer: a window's pass made other records than the survey");
    std::size_t begin = 0;
    for (const std::size_t end : ends_) {
      each(sort_(std::span<Change>(list_).subspan(begin, end - begin)));
      begin = end;
    }
  }
  // The list's memory, for the next window.
  ReallocArray<Change> release() { return std::move(list_); }

 private:
  [[nodiscard]] std::size_t bucket(double t) const {
    const double b = t / horizon_ * static_cast<double>(buckets_);
    if (!(b > 0)) return 0;  // NaN too
    return b >= static_cast<double>(buckets_ - 1) ? buckets_ - 1 : static_cast<std::size_t>(b);
  }
  // Whether records in buckets [first, last] can fall in the kept ones.
  [[nodiscard]] bool reaches(std::size_t first, std::size_t last) const {
    return first < last_ && last >= first_;
  }
  struct Block {
    std::uint32_t first_bucket, last_bucket;  // of its records; first > last when it has none
  };

  double horizon_ = 1.0;
  std::size_t buckets_ = 0;           // of the histogram
  std::size_t first_ = 0, last_ = 0;  // the kept buckets
  std::size_t seq_ = 0;
  const Changes* survey_ = nullptr;  // a window's pass: the survey it follows
  // 4-byte counts and places: a run has fewer than 2^32 records (add() checks).
  std::vector<std::uint32_t> histogram_;  // survey pass only
  std::vector<Block> blocks_;             // survey pass only
  bool block_inside_ = false;             // the block entered has all its records in the window
  std::vector<std::uint32_t> next_;       // where each kept bucket's next record goes
  std::vector<std::uint32_t> ends_;       // where each kept bucket's records end
  ReallocArray<Change> list_;
  ChangeSort sort_;
};

void add(Changes& out, double t, int gpu, Curve what, double by) {
  out.add(t, gpu, what, by);
}

// Bytes of hop `h` leaving (sign −1) or arriving at (+1) `gpu` linearly over the hop, on the NIC
// curve when `nic` and on the eager curve.
void linear(Changes& out, const Hop& h, int gpu, double sign, bool nic) {
  const double s = static_cast<double>(h.start), e = static_cast<double>(h.end);
  if (h.end > h.start) {
    const double r = sign * h.bytes / (e - s);
    const Curve slope = nic ? kBothSlopes : kEagerSlope;
    add(out, s, gpu, slope, r);
    add(out, e, gpu, slope, -r);
    return;
  }
  if (nic) add(out, s, gpu, kNic, sign * h.bytes);
  add(out, s, gpu, kEager, sign * h.bytes);
}

// Emits one GPU's curve as a sequence of (time, value, slope, waiting) states, each holding until
// the next, as the jumps and slope changes between them.
struct CurveWriter {
  Changes& out;
  int gpu;
  double value = 0, slope = 0, wait = 0, last = 0;

  void set(double t, double v, double s, double wt) {
    const double left = value + slope * (t - last);
    add(out, t, gpu, kNic, v - left);
    add(out, t, gpu, kNicSlope, s - slope);
    add(out, t, gpu, kWait, wt - wait);
    value = v, slope = s, wait = wt, last = t;
  }
};

// A hop off the source starting (active +1) or ending (−1), or a zero-length hop (0).
struct Edge {
  double t, rate;
  int active;
  double instant;  // bytes of a zero-length hop
};

// Stable by time: insertion for the few edges of most messages (whose hops come mostly in time
// order), where std::stable_sort would allocate a buffer per message.
void sort_by_time(std::vector<Edge>& edges) {
  const auto earlier = [](const Edge& a, const Edge& b) { return a.t < b.t; };
  if (std::is_sorted(edges.begin(), edges.end(), earlier)) return;  // back-to-back pieces: ideal's
  if (edges.size() > 32) {
    std::stable_sort(edges.begin(), edges.end(), earlier);
    return;
  }
  for (std::size_t i = 1; i < edges.size(); ++i)
    for (std::size_t k = i; k > 0 && earlier(edges[k], edges[k - 1]); --k)
      std::swap(edges[k], edges[k - 1]);
}

// The source NIC's share of one message from its posting on: the unsent bytes R(t) in full while
// no hop leaves the source, min(R, W) while one does (several concurrent hops are still one
// message with one window). `edges` is scratch space, reused from message to message.
void source_curve(Changes& out, const workload::Task& task, std::span<const Hop> hops, double post,
                  double window, std::vector<Edge>& edges) {
  edges.clear();
  for (const Hop& h : hops) {
    if (h.from != task.src) continue;
    const double s = static_cast<double>(h.start), e = static_cast<double>(h.end);
    if (h.end > h.start) {
      edges.push_back({s, h.bytes / (e - s), 1, 0});
      edges.push_back({e, -h.bytes / (e - s), -1, 0});
    } else {
      edges.push_back({s, 0, 0, h.bytes});
    }
  }
  sort_by_time(edges);
  CurveWriter curve{out, task.src};
  double t = edges.empty() ? post : std::min(post, edges.front().t);
  double remaining = task.bytes, rate = 0;
  int active = 0;
  for (std::size_t i = 0;;) {
    for (; i < edges.size() && edges[i].t <= t; ++i) {
      rate += edges[i].rate;
      active += edges[i].active;
      remaining -= edges[i].instant;
    }
    if (active == 0) rate = 0;  // no rounding drift between pieces
    if (i == edges.size() && active == 0) {
      curve.set(t, 0, 0, 0);  // every byte has left
      return;
    }
    remaining = std::max(remaining, 0.0);
    const double next = i < edges.size() ? edges[i].t : INFINITY;
    if (active == 0) {
      curve.set(t, remaining, 0, remaining);
    } else if (remaining <= window) {
      curve.set(t, remaining, -rate, 0);
    } else {
      curve.set(t, window, 0, 0);
      const double cut = t + (remaining - window) / rate;  // the window starts to drain
      if (window > 0 && cut < next) curve.set(cut, window, -rate, 0);
    }
    remaining -= rate * (next - t);
    t = next;
  }
}

void task_changes(Changes& out, const workload::Workload& w, const Trace& trace,
                  const BufferModel& model, std::size_t i, std::vector<Edge>& edges) {
  const workload::Task& t = w.tasks[i];
  if (t.kind != workload::TaskKind::send || trace.ready[i] < 0) return;
  const auto& hops = trace.hops[i];
  const double ready = static_cast<double>(trace.ready[i]);
  double post = ready;
  if (model.posting == Posting::timetable) {  // planned start: the first hop off the source
    double first = INFINITY;
    for (const Hop& h : hops)
      if (h.from == t.src) first = std::min(first, static_cast<double>(h.start));
    post = std::isfinite(first) ? std::max(ready, first) : ready;
  }
  if (post > ready) {
    add(out, ready, t.src, kHbm, t.bytes);
    add(out, post, t.src, kHbm, -t.bytes);
  }
  add(out, ready, t.src, kEager, t.bytes);  // eager: all of it, when ready
  source_curve(out, t, hops, post, model.window, edges);
  for (const Hop& h : hops) {
    linear(out, h, h.from, -1.0, h.from != t.src);  // the source's own share: source_curve
    if (h.from != t.src) add(out, static_cast<double>(h.start), h.from, kWait, -h.bytes);
    if (h.to == t.dst) continue;
    linear(out, h, h.to, +1.0, true);
    add(out, static_cast<double>(h.end), h.to, kWait, h.bytes);
  }
}

// The times every record of task i lies within (task_changes makes some): its ready time, its
// posting (its ready time or a later start of a hop), its hops' starts and ends, and the source
// curve's breakpoints, each at one of these or between a hop's start and the last hop's end.
std::pair<double, double> task_span(const Trace& trace, std::size_t i) {
  const auto ready = static_cast<double>(trace.ready[i]);
  double first = ready, last = ready;
  for (const Hop& h : trace.hops[i]) {
    first = std::min(first, static_cast<double>(h.start));
    last = std::max(last, static_cast<double>(h.end));
  }
  return {first, last};
}

void make_changes(Changes& out, const workload::Workload& w, const Trace& trace,
                  const BufferModel& model) {
  const std::size_t per_block = std::max<std::size_t>(model.tasks_per_block, 1);
  std::vector<Edge> edges;
  for (std::size_t begin = 0, block = 0; begin < w.tasks.size(); begin += per_block, ++block) {
    if (!out.enter_block(block)) continue;
    const std::size_t end = std::min(begin + per_block, w.tasks.size());
    for (std::size_t i = begin; i < end; ++i) {
      if (out.enters_task([&] { return task_span(trace, i); }))
        task_changes(out, w, trace, model, i, edges);
    }
  }
}

struct Window {
  std::size_t first, last;  // histogram buckets
};

// Ranges of buckets holding at most `most` records each (one bucket may hold more); one range
// when the whole list fits.
std::vector<Window> windows(const Changes& survey, std::size_t most) {
  const std::vector<std::uint32_t>& h = survey.histogram();
  if (survey.count() <= most) return {{0, h.size()}};
  std::vector<Window> out;
  Window current{0, 0};
  std::size_t size = 0;
  for (std::size_t b = 0; b < h.size(); ++b) {
    if (size > 0 && size + h[b] > most) {
      current.last = b;
      out.push_back(current);
      current = {b, 0};
      size = 0;
    }
    size += h[b];
  }
  current.last = h.size();
  out.push_back(current);
  return out;
}

// One GPU's (or the total's) piecewise-linear state; advance() moves it to time t.
struct Level {
  double nic = 0, nic_slope = 0, eager = 0, eager_slope = 0, wait = 0, hbm = 0, last = 0;
  void advance(double t) {
    nic += nic_slope * (t - last);
    eager += eager_slope * (t - last);
    last = t;
  }
  void apply(const Change& c) {
    static constexpr double Level::*kField[] = {&Level::nic,   &Level::nic_slope,
                                                &Level::wait,  &Level::hbm,
                                                &Level::eager, &Level::eager_slope};
    if (c.what() == kBothSlopes) {
      nic_slope += c.by;
      eager_slope += c.by;
      return;
    }
    this->*kField[c.what()] += c.by;
  }
};

double clean(double v, double scale) {
  return std::abs(v) <= 1e-9 * scale ? 0.0 : v;
}

void update_peaks(BufferStats& s, const Level& l) {
  s.peak = std::max(s.peak, l.nic);
  s.peak_eager = std::max(s.peak_eager, l.eager);
  s.peak_waiting = std::max(s.peak_waiting, l.wait);
  s.peak_hbm = std::max(s.peak_hbm, l.hbm);
}

// The sweep over the sorted records, window after window.
class Sweep {
 public:
  Sweep(const workload::Workload& w, std::vector<BufferSample>* series)
      : gpu_(static_cast<std::size_t>(w.gpus)), series_(series) {
    for (const workload::Task& t : w.tasks) scale_ = std::max(scale_, t.bytes);
  }

  // The records of one histogram bucket (records of equal times share a bucket), buckets in
  // time order.
  void run(std::span<const Change> all) {
    for (std::size_t i = 0; i < all.size();) {
      const double t = all[i].t;
      integral_ += (total_.nic + 0.5 * total_.nic_slope * (t - total_.last)) * (t - total_.last);
      total_.advance(t);
      s_.peak_total = std::max(s_.peak_total, total_.nic);
      while (i < all.size() && all[i].t == t) {
        const int g = all[i].gpu();
        Level& l = gpu_[static_cast<std::size_t>(g)];
        l.advance(t);
        update_peaks(s_, l);  // the left limit: a jump may go down
        const Level left = l;
        for (; i < all.size() && all[i].t == t && all[i].gpu() == g; ++i) {
          l.apply(all[i]);
          total_.apply(all[i]);
        }
        update_peaks(s_, l);
        if (!series_) continue;
        // Where a curve jumps, the value just before it as well: the curves are then linear
        // between samples, the last one before a jump included.
        if (jumps(left, l)) series_->push_back(sample(t, g, left));
        series_->push_back(sample(t, g, l));
      }
      s_.peak_total = std::max(s_.peak_total, total_.nic);
    }
  }

  [[nodiscard]] bool jumps(const Level& before, const Level& after) const {
    return clean(after.nic - before.nic, scale_) != 0 ||
           clean(after.wait - before.wait, scale_) != 0 ||
           clean(after.hbm - before.hbm, scale_) != 0;
  }
  [[nodiscard]] BufferSample sample(double t, int g, const Level& l) const {
    return {t / kPsPerSecond, g, clean(l.nic, scale_), clean(l.wait, scale_), clean(l.hbm, scale_)};
  }

  [[nodiscard]] BufferStats stats(Time iteration_time, int gpus) const {
    BufferStats s = s_;
    if (iteration_time > 0 && gpus > 0)
      s.mean = integral_ / (static_cast<double>(iteration_time) * gpus);
    return s;
  }

 private:
  std::vector<Level> gpu_;
  Level total_;
  double integral_ = 0.0, scale_ = 1.0;
  BufferStats s_;
  std::vector<BufferSample>* series_;
};

// Makes the records of one window in `list`'s memory and sweeps them; returns that memory.
ReallocArray<Change> sweep_window(const workload::Workload& w, const Trace& trace,
                                  const BufferModel& model, const Changes& survey,
                                  const Window& window, Sweep& sweep, ReallocArray<Change> list) {
  Changes out(survey, window.first, window.last, std::move(list));
  make_changes(out, w, trace, model);
  out.for_each_sorted_bucket([&](std::span<const Change> bucket) { sweep.run(bucket); });
  return out.release();
}

}  // namespace

// 2^26 samples: 2.5 GiB of address space, not of memory.
constexpr std::size_t kMaxReservedSamples = std::size_t{1} << 26;

BufferModel buffer_model(const Fabric& f, Posting posting) {
  return {.posting = posting, .window = f.link_rate * f.nic_window};
}

BufferStats nic_buffer(const workload::Workload& w, const Trace& trace, const BufferModel& model,
                       Time iteration_time, std::vector<BufferSample>* series) {
  static_assert(sizeof(Change) == 24);
  if (w.gpus > (1 << 29)) throw std::length_error("nic_buffer: more than 2^29 GPUs");
  Changes survey(iteration_time > 0 ? static_cast<double>(iteration_time) : 1.0, w);
  make_changes(survey, w, trace, model);
  // A curve has at most two samples per record (a jump's takes two). Reserved, not touched:
  // growing the series by doubling copied it and faulted in about twice its pages (a large share
  // of writing the files).
  if (series != nullptr)
    series->reserve(series->size() + std::min(2 * survey.count(), kMaxReservedSamples));
  Sweep sweep(w, series);
  // A window holds one record (24 bytes) per two tasks, at least 2^18: the whole list was the
  // largest block of a 64-GPU ResNet-50 run (108 MB beside 50 MB of tasks). Its 4.5 M records
  // take 18 windows where two records per task took five, whose list was the last 10 MB of that
  // run's peak. While a window's pass skipped only blocks of tasks, not the tasks of a block
  // outside it, the extra passes cost 0.4 % more instructions there and 3.3 % on a 16-layer
  // rotornet-vlb run, whose relayed sends reach over many windows.
  const std::size_t most =
      std::min(model.max_records, std::max<std::size_t>(w.tasks.size() / 2, std::size_t{1} << 18));
  ReallocArray<Change> list;
  list.reserve(std::min(survey.count(), most));  // a window's size, mostly
  for (const Window& window : windows(survey, most)) {
    list = sweep_window(w, trace, model, survey, window, sweep, std::move(list));
  }
  return sweep.stats(iteration_time, w.gpus);
}

}  // namespace flux::fabric
